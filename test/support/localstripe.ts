/**
 * localstripe (an in-memory Stripe fake in Python, `docs/operations.md`, "Stripe") for the Stripe
 * adapter's tests: one per suite, started on a free port in `before`, stopped in `after`.
 *
 * Where it is looked for: `LOCALSTRIPE_DIR` (a clone of the repository), then `/opt/localstripe`
 * (where `.ci/run` clones it), then an installed `localstripe` module. The Python is
 * `LOCALSTRIPE_PYTHON`, else the first of `/usr/bin/python3` and `python3` on PATH that imports
 * localstripe's dependencies (aiohttp, dateutil).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './webhook-receiver.ts';

export interface Localstripe {
  url: string;
  /** localstripe accepts any key shaped like a Stripe secret key. */
  secretKey: string;
  /** The Python process serving it (its memory and CPU time are read from /proc by the benchmark). */
  pid: number;
  stop(): Promise<void>;
}

interface Installation {
  python: string;
  /** Working directory holding the `localstripe` package, or null when the module is installed. */
  dir: string | null;
}

const startTimeoutMs = 15_000;

/** Where localstripe is, or why it cannot be run here. */
export function findLocalstripe(): Installation | { missing: string } {
  const pythons = process.env.LOCALSTRIPE_PYTHON ? [process.env.LOCALSTRIPE_PYTHON] : ['/usr/bin/python3', 'python3'];
  const dirs = [process.env.LOCALSTRIPE_DIR, '/opt/localstripe'].filter(
    (dir): dir is string => !!dir && existsSync(join(dir, 'localstripe', 'server.py')),
  );
  for (const python of pythons) {
    for (const dir of [...dirs, null]) {
      const check = spawnSync(python, ['-c', 'import aiohttp, dateutil, localstripe.server'], {
        cwd: dir ?? undefined,
        stdio: 'ignore',
        timeout: 15_000,
      });
      if (check.status === 0) return { python, dir };
    }
  }
  return {
    missing:
      dirs.length === 0
        ? 'no localstripe clone in LOCALSTRIPE_DIR or /opt/localstripe, and no installed localstripe module'
        : `no Python among ${pythons.join(', ')} imports aiohttp and dateutil (Debian: python3-aiohttp, python3-dateutil)`,
  };
}

export async function startLocalstripe(installation: Installation): Promise<Localstripe> {
  let lastError: unknown;
  // The free port can be taken between probing and binding: try a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await launch(installation, await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function launch({ python, dir }: Installation, port: number): Promise<Localstripe> {
  const child = spawn(python, ['-m', 'localstripe', '--port', String(port), '--from-scratch'], {
    cwd: dir ?? undefined,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await terminate(child, exited);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await answers(url)) return { url, secretKey: 'sk_test_localstripe_suite_key', pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`localstripe on port ${port} did not start:\n${output}`);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/v1/balance`, {
      headers: { authorization: 'Bearer sk_test_probe' },
      signal: AbortSignal.timeout(1000),
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
