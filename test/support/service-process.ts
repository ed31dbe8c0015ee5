import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cardNumbersIn, findCardData } from './card-data-scan.ts';

const ROOT = resolve(import.meta.dirname, '../..');

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
  /** Run the production build (`dist/main.js`, made by `npm run build`) instead of the sources through tsx. */
  compiled?: boolean;
}

/**
 * Starts the real service (`services/main.ts`, or its build; embedded profile) as a child process
 * on a free port, with its own data directory, and waits until it serves.
 */
export async function startService(options: StartOptions = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-'));
  // The compiled service runs as `npm start` runs it.
  const entry = options.compiled
    ? ['--enable-source-maps', '--max-semi-space-size=8', 'dist/main.js']
    : ['--import', 'tsx', 'services/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    // TRUST_PROXY=loopback: the tests' ApiClient speaks as a TLS-terminating proxy on this host
    // would (X-Forwarded-Proto: https), so that live-mode requests are accepted over plain HTTP.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      // Every answer of every API test is checked against its route's response schema.
      STRICT_RESPONSES: 'true',
      ...options.env,
    },
  });
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
function refuseCardData(dataDir: string, output: string): void {
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

/** Builds the bundle that `compiled: true` starts (`npm run build`, as `npm start` does): it starts in half the time. */
export function buildService(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'pipe' });
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Runs the operators' CLI against a data directory; resolves with its output, and fails when that
 * output holds a card number (see card-data-scan.ts).
 */
export async function runCli(
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('close', resolveExit));
  const leaked = [...cardNumbersIn(stdout), ...cardNumbersIn(stderr)];
  if (leaked.length > 0)
    throw new Error(`card data found in the output of cli ${args.join(' ')}: ${leaked.length} number(s)`);
  return { code, stdout, stderr };
}
