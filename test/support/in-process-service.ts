import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../packages/config/environment.ts';
import { createLogger } from '../../packages/observability/logger.ts';
import { runService } from '../../services/service.ts';
import {
  refuseCardData,
  serviceEnv,
  type AccountKeys,
  type ServiceProcess,
  type StartOptions,
} from './service-process.ts';

/**
 * Starts the real service (embedded profile, with the API role) inside the test process: a real HTTP
 * server on a free port of 127.0.0.1, with its own data directory, its configuration from its own
 * environment (process.env is read, never changed, so services with different settings run side
 * by side) and its log lines kept for output(). What needs a process of its own (kill(),
 * signals, FAULT_INJECTION, whose points kill the process) is refused: use startService().
 */
export async function startInProcessService(options: StartOptions = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-'));
  const env = serviceEnv(dataDir, options.env);
  if (env.FAULT_INJECTION)
    throw new Error('FAULT_INJECTION kills the process it runs in: start the service in a process of its own');
  const config = loadConfig(env);
  let output = '';
  const lines = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const running = await runService(config, createLogger(config.logLevel, lines), (text) => (output += text));
  if (!running.server) {
    await running.stop();
    throw new Error(`SERVICE_ROLE=${config.serviceRole} serves no HTTP: start it with startService()`);
  }
  const { port } = running.server;
  let stopped: Promise<void> | undefined;
  const needsOwnProcess = (what: string) =>
    new Error(`${what} needs the service in a process of its own: useService({ ownProcess: true }) or startService()`);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    pid: process.pid,
    keys: keysIn(output),
    output: () => output,
    async stop() {
      stopped ??= running.stop();
      await stopped;
      refuseCardData(dataDir, output);
      return 0;
    },
    kill: () => Promise.reject(needsOwnProcess('kill()')),
    signal(signal) {
      throw needsOwnProcess(`signal('${signal}')`);
    },
  };
}

/** The default account's keys, printed (as in a child's output) on the first start of an empty data directory. */
function keysIn(output: string): AccountKeys | null {
  const line = output.split('\n').find((candidate) => candidate.startsWith('{"id":"acct_'));
  return line ? (JSON.parse(line) as AccountKeys) : null;
}
