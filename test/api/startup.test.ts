import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApi } from '../../services/api/openapi-document.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('service start-up', function () {
  this.timeout(30_000);

  it('stops at once with one clear line naming a badly configured variable', () => {
    // The build, as `npm start` runs it (made once per test run by test/support/build-service.ts).
    const run = spawnSync(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'eighty', DATA_DIR: '/nonexistent/never-created' },
      encoding: 'utf8',
    });
    expect(run.status).to.equal(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/PORT/);
    expect(run.stdout).to.equal('');
  });

  it('keeps docs/openapi.json identical to the document the routes generate (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(resolve(ROOT, 'docs/openapi.json'), 'utf8')) as unknown;
    expect(committed).to.deep.equal(JSON.parse(JSON.stringify(buildOpenApi())));
  });
});
