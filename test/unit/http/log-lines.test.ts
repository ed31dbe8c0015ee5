import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { accessLogLine, type AccessLogFields } from '../../../packages/http/access-log.ts';
import { createLogger, lineSinkOf } from '../../../packages/observability/logger.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

/** A logger writing to a stream, and the raw lines it wrote. */
function capturingLogger(level: 'info' | 'warn' = 'info') {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  return { logger: createLogger(level, stream), lines };
}

const flushed = () => new Promise((resolveFlush) => setImmediate(resolveFlush));

/** The same line without its timestamp, which differs between two writes. */
const withoutTimestamp = (line: string) => line.replace(/"timestamp":"[^"]+"/, '"timestamp":"…"');

describe('observability: access lines and log output', () => {
  const fields: AccessLogFields = {
    method: 'GET',
    path: '/customers/cust_4242424242424242',
    status: 200,
    durationMs: 1.25,
    requestId: 'req_1',
    correlationId: undefined,
    accountId: 'acct_1',
    keyId: 'key_1',
    aborted: undefined,
  };

  it('writes the access line exactly as the logger would: fields, key order, redaction', async () => {
    const { logger, lines } = capturingLogger();
    lineSinkOf(logger, 'info')!.write(accessLogLine(fields));
    logger.info('request', fields);
    await flushed();
    expect(lines).to.have.length(2);
    expect(withoutTimestamp(lines[0]!)).to.equal(withoutTimestamp(lines[1]!));
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(entry)).to.deep.equal([...Object.keys(entry)].sort());
    expect(entry).to.include({ path: '/customers/cust_[REDACTED]', level: 'info', message: 'request', status: 200 });
    expect(entry).not.to.have.property('correlationId');
    expect(entry).not.to.have.property('aborted');
  });

  it('writes every field the logger would when all are given, each redacted as it would be', async () => {
    const { logger, lines } = capturingLogger();
    const full: AccessLogFields = {
      method: 'POST',
      path: '/charges/4242-4242-4242-4242/"quoted"\\',
      status: 499,
      durationMs: 4242424242424242,
      requestId: 'req_2',
      correlationId: 'order-5555555555554444',
      accountId: 'acct_1',
      keyId: 'key_1',
      aborted: true,
    };
    lineSinkOf(logger, 'info')!.write(accessLogLine(full));
    logger.info('request', full);
    await flushed();
    expect(lines).to.have.length(2);
    expect(withoutTimestamp(lines[0]!)).to.equal(withoutTimestamp(lines[1]!));
    expect(JSON.parse(lines[0]!)).to.include({
      aborted: true,
      correlationId: 'order-[REDACTED]',
      durationMs: '[REDACTED]',
      path: '/charges/[REDACTED]/"quoted"\\',
    });
  });

  it('honours the level', () => {
    const { logger } = capturingLogger('warn');
    expect(lineSinkOf(logger, 'info')).to.equal(null);
    expect(lineSinkOf(logger, 'warn')).not.to.equal(null);
  });

  it('writes every pending stdout line before the process exits, in order', () => {
    // Lines for stdout wait for the end of the event loop's turn; process.exit comes first here.
    const script = [
      "import { createLogger } from './packages/observability/logger.ts';",
      "const logger = createLogger('info');",
      "for (let i = 0; i < 2000; i++) logger.info('line', { i });",
      'process.exit(0);',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).to.equal(0);
    const numbers = child.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).to.deep.equal(Array.from({ length: 2000 }, (_, i) => i));
  });
});
