import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface BareServer {
  baseUrl: string;
  /** The same app on a server whose messages are born with its prototypes (bare-server.ts). */
  bornUrl: string;
  pid: number;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

/** Starts `bare-server.ts` as a child process (as the service is one) and waits for its port. */
export async function startBareServer(): Promise<BareServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'bare-server.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const [port, bornPort] = await new Promise<[number, number]>((resolvePort, reject) => {
    const timeout = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bare server did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /^\{"port":(\d+),"bornPort":(\d+)\}$/m.exec(output);
      if (!match) return;
      clearTimeout(timeout);
      // Past its port it prints nothing; stop collecting anyway.
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolvePort([Number(match[1]), Number(match[2])]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // `exited` never rejects; it only turns an early exit into a failed start.
    void exited.then(() => {
      clearTimeout(timeout);
      reject(new Error(`the bare server exited before starting:\n${output}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    bornUrl: `http://127.0.0.1:${bornPort}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
