import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { runCli as runCliCommand } from '../../services/cli/program.ts';
import { cardNumbersIn, findCardData } from './card-data-scan.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `npm start`'s command line (package.json's `start` script) in a checkout of the repository: the
 * environment it sets, then Node's flags and the entry point, so that the compiled service runs
 * here as it runs there.
 */
function startCommand(root: string): { env: Record<string, string>; nodeArgs: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node === -1) throw new Error(`package.json's start script runs no node: ${scripts.start}`);
  const env = Object.fromEntries(
    words.slice(0, node).map((word) => {
      const [name, ...value] = word.split('=');
      return [name!, value.join('=')];
    }),
  );
  return { env, nodeArgs: words.slice(node + 1) };
}

/** This checkout's start command. */
const START = startCommand(ROOT);

export interface AccountKeys {
  id: string;
  testSecretKey: string;
  testPublicKey: string;
  liveSecretKey: string;
  livePublicKey: string;
}

export interface ServiceProcess {
  baseUrl: string;
  dataDir: string;
  /** Process id of the service (its /proc entries: I/O counters, memory). */
  pid: number;
  /** Keys of the default account, printed at the first start of an empty data directory. */
  keys: AccountKeys | null;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and wait for exit; then fails if card numbers are found in DATA_DIR or the output. */
  stop(): Promise<number | null>;
  /** SIGKILL: no graceful anything. */
  kill(): Promise<void>;
  /** Sends a signal without waiting (e.g. SIGHUP to reload the TLS certificate). */
  signal(signal: NodeJS.Signals): void;
}

export interface StartOptions {
  /** Reuse a data directory (restart tests); a fresh temporary one otherwise. */
  dataDir?: string;
  env?: Record<string, string>;
  /** How long the start may take before the process is killed (default 30 s). */
  startTimeoutMs?: number;
  /**
   * Run the production build (`dist/main.js`, made by `npm run build`; the default, built once per
   * test run by `build-service.ts`) or, false, the sources through tsx.
   */
  compiled?: boolean;
  /**
   * The checkout of the repository whose production build runs, started as its own `npm start`
   * runs it (another commit's worktree, for benchmarks that compare builds); this one by default.
   */
  root?: string;
}

/**
 * The environment a test service runs with: the test process's, a free port on 127.0.0.1, its data
 * directory and the settings every API test wants, then the test's own.
 */
export function serviceEnv(dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // The tests' ApiClient speaks as a TLS-terminating proxy on this host would
    // (X-Forwarded-Proto: https), so that live-mode requests are accepted over plain HTTP.
    TRUST_PROXY: 'loopback',
    // Every answer of every API test is checked against its route's response schema.
    STRICT_RESPONSES: 'true',
    ...env,
  };
}

/**
 * Starts the real service (its build `dist/main.js`, or `services/main.ts` through tsx; embedded
 * profile) as a child process on a free port, with its own data directory, and waits until it
 * serves: for tests that kill it, signal it or restart it. `startInProcessService()` starts it
 * inside the test process for everything else.
 */
export async function startService(options: StartOptions = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-'));
  // The compiled service runs as `npm start` runs it.
  const compiled = options.compiled !== false;
  const root = options.root ?? ROOT;
  const start = root === ROOT ? START : startCommand(root);
  const entry = compiled ? start.nodeArgs : ['--import', 'tsx', 'services/main.ts'];
  const env = serviceEnv(dataDir, compiled ? { ...start.env, ...options.env } : options.env);
  const child = spawn(process.execPath, entry, { cwd: root, env });
  let output = '';
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const started = new Promise<{ port: number; keys: AccountKeys | null }>((resolveStart, reject) => {
    let keys: AccountKeys | null = null;
    let partial = '';
    // Only new lines are looked at: re-reading the whole output per chunk would cost the
    // test process more CPU the longer the service logs (and skew benchmarks).
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{"id":"acct_')) keys = JSON.parse(line) as AccountKeys;
        if (line.includes('"service started"')) {
          const { port } = JSON.parse(line) as { port: number };
          resolveStart({ port, keys });
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // `exited` never rejects; it only turns an early exit into a failed start.
    void exited.then((code) => reject(new Error(`service exited with ${code} before starting:\n${output}`)));
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.startTimeoutMs ?? 30_000);
  const { port, keys } = await started.finally(() => clearTimeout(timeout));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    pid: child.pid!,
    keys,
    output: () => output,
    stop: async () => {
      const code = await stopChild(child, exited, 'SIGTERM');
      refuseCardData(dataDir, output);
      return code;
    },
    signal: (signal) => void child.kill(signal),
    kill: async () => {
      await stopChild(child, exited, 'SIGKILL');
      refuseCardData(dataDir, output);
    },
  };
}

/** Every API test run ends with a scan of its data directory and logs for card numbers. */
export function refuseCardData(dataDir: string, output: string): void {
  const found = findCardData(dataDir, output);
  if (found.length > 0) throw new Error(`card data found in plain text after the service stopped: ${found.join('; ')}`);
}

async function stopChild(
  child: ChildProcessWithoutNullStreams,
  exited: Promise<number | null>,
  signal: NodeJS.Signals,
): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exited;
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Runs one command of the operators' CLI against a data directory, in this process (as
 * `npm run cli` runs it, with the environment given here); resolves with its exit code and output,
 * and fails when that output holds a card number (see card-data-scan.ts).
 */
export async function runCli(
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const code = await runCliCommand(args, { env: { ...process.env, DATA_DIR: dataDir, ...env }, stdout, stderr });
  const leaked = [...cardNumbersIn(stdout.text), ...cardNumbersIn(stderr.text)];
  if (leaked.length > 0)
    throw new Error(`card data found in the output of cli ${args.join(' ')}: ${leaked.length} number(s)`);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A stream that keeps what is written to it as text. */
class TextSink extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
