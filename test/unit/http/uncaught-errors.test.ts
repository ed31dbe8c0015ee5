import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('http kit: an error nobody catches', function () {
  this.timeout(30_000);
  let child: ChildProcess;
  let output = '';
  let baseUrl = '';

  before('start a server whose routes fail unheard', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/uncaught-error-server.ts'], { cwd: ROOT });
    const port = await new Promise<number>((resolvePort, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = /\{"port":(\d+)\}/.exec(output);
        if (line) resolvePort(Number(line[1]));
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    baseUrl = `http://127.0.0.1:${port}`;
  });
  after(() => child.kill('SIGKILL'));

  for (const path of ['/unheard-error-event', '/unheard-rejection']) {
    it(`answers ${path} with a 500 in the error envelope, logs it and keeps serving`, async () => {
      const failed = await fetch(`${baseUrl}${path}`);
      expect(failed.status).to.equal(500);
      expect(((await failed.json()) as { error: { type: string } }).error.type).to.equal('gateway_error');
      expect((await fetch(`${baseUrl}/ok`)).status).to.equal(200);
      expect(child.exitCode).to.equal(null);
      expect(output).to.contain('Uncaught error: kept serving');
    });
  }
});
