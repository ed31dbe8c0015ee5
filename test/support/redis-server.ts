/**
 * A throwaway redis-server for suites that need real Redis: one per suite, started in `before`,
 * stopped in `after`. Nothing is persisted; its working directory is a temp dir removed on stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  /** Shuts the server down without saving and removes its temp dir. */
  stop(): Promise<void>;
  /** SIGKILLs the server, for tests that simulate a lost Redis. */
  kill(): Promise<void>;
  /** SIGSTOPs the server: it keeps its connections but reads nothing more, until killed. */
  freeze(): void;
}

const host = '127.0.0.1';
const startTimeoutMs = 10_000;
const stopTimeoutMs = 5_000;

function redisServerPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export function redisServerAvailable(): boolean {
  return redisServerPath() !== null;
}

/** Returns null when no redis-server binary is on PATH. */
export async function startRedisServer(): Promise<RedisServer | null> {
  const binary = redisServerPath();
  if (!binary) return null;
  // The free port can be taken between probing and binding: try a few times.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await launch(binary, await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** A new, empty redis-server on a given port: Redis coming back after it was killed. */
export async function startRedisServerOn(port: number): Promise<RedisServer> {
  const binary = redisServerPath();
  if (!binary) throw new Error('redis-server is not on PATH');
  return launch(binary, port);
}

async function launch(binary: string, port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const args = ['--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(binary, [...args, '--daemonize', 'no', '--loglevel', 'warning'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A crashed test run must not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const release = async (signal: NodeJS.Signals) => {
    process.removeListener('exit', killOnExit);
    await terminate(child, exited, signal);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitForPong(port, child);
  } catch (error) {
    await release('SIGKILL');
    throw new Error(`redis-server on port ${port} did not start: ${(error as Error).message}\n${output}`);
  }
  return {
    url: `redis://${host}:${port}`,
    port,
    stop: () => release('SIGTERM'),
    kill: () => release('SIGKILL'),
    freeze: () => void child.kill('SIGSTOP'),
  };
}

async function terminate(child: ChildProcess, exited: Promise<void>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}

async function waitForPong(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('process exited');
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no PONG within ${startTimeoutMs} ms`);
}

/** Speaks just enough RESP to ask for PONG, so the helper needs no Redis client. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (reply) => done(reply.toString().startsWith('+PONG')));
  });
}
