import { getPriority, setPriority } from 'node:os';
import { basename } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import type { Writable } from 'node:stream';
import { ProjectionRunner, type RebuildProgress } from '../../packages/projection-runtime/projection-runner.ts';
import { projectionStates, readProjectionState } from '../../packages/projection-runtime/projection-state.ts';
import type { Platform } from '../platform.ts';
import { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import { projectionsLease, readStoreBuildLease, type Lease } from '../projector/lease.ts';
import { ReadFileBuild } from '../projector/read-file-build.ts';
import { ReadStoreBuildProgress } from '../projector/read-store-build-progress.ts';
import { requestSwitch } from '../projector/read-store-switch.ts';

const POLL_MS = 200;
/** The nice value of a full rebuild's process (19: runs when nothing else wants the core). */
const BUILD_PRIORITY = 19;
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
  /** A full rebuild of the embedded read store keeps this process's priority instead of nice 19. */
  { normalPriority = false }: { normalPriority?: boolean } = {},
): Promise<void> {
  const every = platform.projections.every((projection) => names.includes(projection.name));
  if (every && platform.readStore instanceof SqliteReadFiles) {
    await rebuildIntoNewFile(platform, platform.readStore, log, progress, normalPriority);
    return;
  }
  // Written into the file a full build replaces, a rebuild would be lost at its switch (or make
  // the build's generation stale and its switch refused): it waits for the switch.
  const building = await readStoreBuildLease(platform.stateStore).currentHolder();
  if (building)
    throw new Error(
      `A full rebuild of the read store is under way (${building}): rebuild ${names.join(', ')} once it has switched`,
    );
  const lease = projectionsLease(platform.stateStore);
  if (await lease.tryAcquire()) {
    log('No projector is running: rebuilding in this process.');
    await rebuildHere(platform, lease, names, progress);
  } else {
    log(`Asking the running projector (${await lease.currentHolder()}) to rebuild.`);
    for (const name of names) await requestRebuild(platform, name, progress);
  }
}

/**
 * Every projection rebuilt in this process into a read store file of its own (embedded profile;
 * `docs/operations.md`): nobody reads it until it is complete and synced, then the data directory
 * switches to it atomically. The running projector, if any, applies the events appended
 * meanwhile and switches between two of its batches; otherwise this process does.
 */
async function rebuildIntoNewFile(
  platform: Platform,
  readFiles: SqliteReadFiles,
  log: (line: string) => void,
  progress: Writable,
  normalPriority: boolean,
) {
  const buildLease = readStoreBuildLease(platform.stateStore);
  if (!(await buildLease.tryAcquire()))
    throw new Error(`Another full rebuild is under way (${await buildLease.currentHolder()})`);
  const renew = setInterval(() => void buildLease.renew(), 3000);
  // The build yields the CPU to the serving processes: their reads come first, the build waits
  // (unless asked not to: a rebuild with nothing else to serve, as in a maintenance window).
  const priority = getPriority();
  if (!normalPriority) setPriority(BUILD_PRIORITY);
  try {
    // Its writer thread starts after the priority was lowered, and so runs at the build's priority too.
    const build = await ReadFileBuild.begin(platform.events, readFiles, platform.projections);
    let recorded: ReadStoreBuildProgress | null = null;
    try {
      log(`Rebuilding every projection into ${basename(build.path)}.`);
      const bar = progressBar('all', progress);
      const head = await platform.events.headPosition();
      bar.start(Math.max(head, 1), 0);
      // The operator console of any running process shows it too.
      recorded = new ReadStoreBuildProgress(platform.stateStore, basename(build.path), 'cli', head);
      // Shown before the first batch is projected, whatever the state store's write costs.
      await recorded.written();
      await build.catchUp((position) => {
        if (position > bar.getTotal()) bar.setTotal(position);
        bar.update(position);
        recorded?.reached(position);
      });
      bar.update(bar.getTotal());
      bar.stop();
      recorded.sealing();
      const projector = projectionsLease(platform.stateStore);
      if (await projector.tryAcquire()) {
        // No projector runs: this process is the single writer until the switch.
        try {
          await build.complete();
          readFiles.switchTo(build.path);
        } finally {
          await projector.release();
        }
      } else {
        await build.complete();
        log(`Asking the running projector (${await projector.currentHolder()}) to switch to it.`);
        await requestSwitch(readFiles, build.path);
      }
    } finally {
      await recorded?.ended();
      // After a failure: the unfinished file stays unread (the next full rebuild deletes it).
      await build.close();
    }
    log(`Serving ${basename(build.path)}.`);
  } finally {
    clearInterval(renew);
    await buildLease.release();
    restorePriority(priority);
  }
}

/** Back to the priority before the build, where allowed (a command run inside a longer-lived process). */
function restorePriority(priority: number): void {
  try {
    setPriority(priority);
  } catch {
    // Raising a priority back needs privileges a CLI process usually lacks; it ends right after.
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
