import { SingleBar, Presets } from 'cli-progress';
import type { Writable } from 'node:stream';
import { ProjectionRunner, type RebuildProgress } from '../../packages/projection-runtime/projection-runner.ts';
import { projectionStates, readProjectionState } from '../../packages/projection-runtime/projection-state.ts';
import type { Platform } from '../platform.ts';
import { Lease } from '../projector/lease.ts';

const POLL_MS = 200;
/** Give up waiting on a running projector that shows no progress for this long. */
const STALL_MS = 60_000;

/**
 * Rebuilds projections blue/green while queries keep being served. When a running projector
 * holds the projections lease, the rebuild is asked of it (it is the single writer of the read
 * models); otherwise this process takes the lease and does the work itself.
 */
export async function rebuildProjections(
  platform: Platform,
  names: string[],
  log: (line: string) => void,
  progress: Writable,
): Promise<void> {
  const lease = new Lease(platform.stateStore.collection('_leases'), 'projections');
  if (await lease.tryAcquire()) {
    log('No projector is running: rebuilding in this process.');
    await rebuildHere(platform, lease, names, progress);
  } else {
    log(`Asking the running projector (${await lease.currentHolder()}) to rebuild.`);
    for (const name of names) await requestRebuild(platform, name, progress);
  }
}

/** Drawn only when `stream` is a terminal. */
function progressBar(name: string, stream: Writable): SingleBar {
  return new SingleBar(
    {
      stream,
      format: `${name.padEnd(12)} [{bar}] {percentage}% | position {value}/{total} | {duration}s`,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
}

async function rebuildHere(platform: Platform, lease: Lease, names: string[], progress: Writable): Promise<void> {
  const runner = new ProjectionRunner(platform.events, platform.readStore, platform.projections, { dropGraceMs: 0 });
  const renew = setInterval(() => void lease.renew(), 3000);
  try {
    await runner.start();
    for (const name of names) {
      const bar = progressBar(name, progress);
      bar.start(1, 0);
      const onProgress = (progress: RebuildProgress): void => {
        if (progress.projection !== name) return;
        bar.setTotal(Math.max(progress.headPosition, 1));
        bar.update(progress.position);
      };
      runner.on('progress', onProgress);
      await runner.rebuild(name);
      runner.off('progress', onProgress);
      const total = bar.getTotal();
      bar.update(total);
      bar.stop();
    }
    // Let the scheduled drops of the replaced builds run before stopping.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    clearInterval(renew);
    await runner.stop();
    await lease.release();
  }
}

async function requestRebuild(platform: Platform, name: string, progress: Writable): Promise<void> {
  const requestedAt = new Date().toISOString();
  const state = await readProjectionState(platform.readStore, name);
  await projectionStates(platform.readStore).put({ ...state, rebuildRequestedAt: requestedAt });
  const bar = progressBar(name, progress);
  bar.start(1, 0);
  let lastChange = Date.now();
  let lastPosition = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const current = await readProjectionState(platform.readStore, name);
    const rebuild = current.rebuild;
    if (rebuild && rebuild.startedAt >= requestedAt) {
      bar.setTotal(Math.max(rebuild.headPosition, 1));
      bar.update(rebuild.position);
      if (rebuild.position !== lastPosition) {
        lastPosition = rebuild.position;
        lastChange = Date.now();
      }
      if (rebuild.finishedAt) {
        bar.update(bar.getTotal());
        bar.stop();
        return;
      }
    }
    if (Date.now() - lastChange > STALL_MS) {
      bar.stop();
      throw new Error(`The running projector did not rebuild ${name} (no progress for ${STALL_MS / 1000}s)`);
    }
  }
}
