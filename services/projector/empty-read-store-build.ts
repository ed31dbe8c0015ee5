import { fork } from 'node:child_process';
import { basename } from 'node:path';
import type { Logger } from 'winston';
import { checkpointKey } from '../../packages/projection-runtime/projection.ts';
import { readProjectionState } from '../../packages/projection-runtime/projection-state.ts';
import type { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import type { Platform } from '../platform.ts';
import { readStoreBuildLease, type Lease } from './lease.ts';
import { ReadStoreBuildProgress } from './read-store-build-progress.ts';
import type { BuildOrder, BuildReport } from './read-file-build-messages.ts';

const RENEW_EVERY_MS = 3_000;
/** How often the build says in the log how far it has got (the operator console shows it every second). */
const PROGRESS_EVERY_MS = 10_000;
/**
 * The build process's module: beside this one in the sources (run through tsx), in `dist/projector/`
 * of the compiled build, whose shared code sits in `dist/` itself (`npm run build`).
 */
const BUILD_PROCESS = import.meta.url.endsWith('.ts')
  ? new URL('./read-file-build-process.ts', import.meta.url)
  : new URL('./projector/read-file-build-process.js', import.meta.url);

/**
 * Whether a start should build the read store (`buildEmptyReadStore`): the log holds at least
 * `READ_STORE_BUILD_MIN_EVENTS` events and no projection has applied any of them in the serving
 * file (a new file: the read files deleted by an operator, a data directory restored from its log).
 */
export async function needsBuild(platform: Platform, readFiles: SqliteReadFiles): Promise<boolean> {
  if ((await platform.events.headPosition()) < platform.config.readStoreBuildMinEvents) return false;
  for (const projection of platform.projections) {
    const state = await readProjectionState(readFiles, projection.name);
    if ((await readFiles.getCheckpoint(checkpointKey(projection.name, state.activeGeneration))) !== null) return false;
  }
  return true;
}

/**
 * At the start of the projections' lease holder, when `needsBuild`: the read store is built as
 * `projections rebuild --all` builds one (`ReadFileBuild`: a file nobody reads, written in bulk on
 * two threads, indexes made at the end; below `READ_STORE_BUILD_MIN_EVENTS` events the projection
 * runner's own catch-up is as quick, above it the build is several times quicker,
 * `docs/benchmarks.md`, "Rebuilds"), in a process of its own whose memory goes back to the system
 * when it ends, then served; the runner started after it applies the events appended meanwhile.
 * Returns whether it built one; a build that fails or is stopped (`signal`) is logged and leaves
 * the empty file serving (the runner then catches up from the log as it always could).
 */
export async function buildEmptyReadStore(
  platform: Platform,
  readFiles: SqliteReadFiles,
  projections: Lease,
  logger: Logger,
  signal: AbortSignal,
): Promise<boolean> {
  const head = await platform.events.headPosition();
  const buildLease = readStoreBuildLease(platform.stateStore);
  if (!(await buildLease.tryAcquire())) {
    logger.warn('read store empty, and a full rebuild is under way elsewhere: catching up from the log meanwhile', {
      holder: await buildLease.currentHolder(),
    });
    return false;
  }
  const startedAt = Date.now();
  // Made when the build process has its file; what the operator console shows.
  const shown: { progress?: ReadStoreBuildProgress } = {};
  let loggedAt = startedAt;
  try {
    const built = await runBuildProcess(
      {
        dataDir: readFiles.dataDir,
        ...(platform.config.eventStoreUrl ? { eventStoreUrl: platform.config.eventStoreUrl } : {}),
      },
      [projections, buildLease],
      signal,
      (report) => {
        if ('started' in report) {
          shown.progress = new ReadStoreBuildProgress(
            platform.stateStore,
            basename(report.started),
            'service start',
            head,
          );
          logger.info('read store empty: building it from the log', { file: basename(report.started), events: head });
          return;
        }
        if ('sealing' in report) {
          shown.progress?.sealing();
          return;
        }
        shown.progress?.reached(report.position);
        if (Date.now() - loggedAt < PROGRESS_EVERY_MS) return;
        loggedAt = Date.now();
        logger.info('building the read store', {
          position: report.position,
          head,
          eventsPerSecond: rate(report.position, startedAt),
        });
      },
    );
    readFiles.switchTo(built.path);
    logger.info('read store built from the log', {
      file: basename(built.path),
      events: built.position,
      seconds: (Date.now() - startedAt) / 1000,
      eventsPerSecond: rate(built.position, startedAt),
    });
    return true;
  } catch (error) {
    if (signal.aborted) logger.info('read store build stopped with the service');
    else logger.error('read store build failed; catching up from the log instead', { error: (error as Error).message });
    return false;
  } finally {
    await shown.progress?.ended();
    await buildLease.release();
  }
}

/**
 * Forks the build process and resolves with the file it built, sealed. Renews the leases while it
 * runs; kills it and fails when a lease is lost or `signal` aborts. `onProgress` is told when it
 * started, its position after each batch, and when it seals the file.
 */
function runBuildProcess(
  order: BuildOrder,
  leases: Lease[],
  signal: AbortSignal,
  onProgress: (report: { started: string } | { position: number } | { sealing: true }) => void,
): Promise<{ path: string; position: number }> {
  return new Promise((resolve, reject) => {
    // Its own output goes where the service's goes; it writes none unless it crashes.
    const child = fork(BUILD_PROCESS, [], {
      execArgv: buildProcessFlags(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      signal,
      killSignal: 'SIGKILL',
    });
    let outcome: { path: string; position: number } | Error | null = null;
    const renew = setInterval(() => {
      for (const lease of leases)
        void lease.renew().then(
          (held) => {
            if (held) return;
            outcome ??= new Error('another process took over a lease of the build');
            child.kill('SIGKILL');
          },
          () => undefined,
        );
    }, RENEW_EVERY_MS);
    child.on('message', (report: BuildReport) => {
      if ('built' in report) outcome ??= { path: report.built, position: report.position };
      else if ('failed' in report) outcome ??= new Error(report.failed);
      else onProgress(report);
    });
    // An abort (the service stopping) comes as an AbortError.
    child.on('error', (error) => (outcome ??= error));
    child.on('exit', (code, exitSignal) => {
      clearInterval(renew);
      if (outcome && !(outcome instanceof Error) && !signal.aborted) resolve(outcome);
      else
        reject(
          outcome instanceof Error ? outcome : new Error(`the build process ended (${exitSignal ?? `exit ${code}`})`),
        );
    });
    child.send(order);
  });
}

/**
 * The service's Node flags but its heap sizing, which keeps a serving process small and would
 * make the build collect garbage far more often (the CLI's rebuild runs with Node's defaults).
 */
function buildProcessFlags(): string[] {
  return process.execArgv.filter((flag) => !/^--(max-semi-space-size|heap-growing-percent)\b/.test(flag));
}

function rate(events: number, since: number): number {
  return Math.round(events / Math.max((Date.now() - since) / 1000, 0.001));
}
