import type { Logger } from 'winston';
import type { Platform } from '../platform.ts';
import { LogCheckpoints } from './log-checkpoints.ts';

/**
 * The projector's periodic checkpoint over the whole log (`docs/audit.md`), every
 * `AUDIT_CHECKPOINT_INTERVAL_MS`. Only the holder of the projections lease records one, so
 * checkpoints have a single writer like the read models.
 */
export function scheduleCheckpoints(platform: Platform, holdsLease: () => boolean, logger: Logger): { stop(): void } {
  const intervalMs = platform.config.auditCheckpointIntervalMs;
  if (intervalMs === 0) return { stop: () => undefined };
  const checkpoints = new LogCheckpoints(platform.stateStore);
  let running = false;
  const timer = setInterval(() => {
    if (running || !holdsLease()) return;
    running = true;
    checkpoints
      .record(platform.events)
      .then((checkpoint) => {
        if (checkpoint)
          logger.info('log checkpoint recorded', {
            checkpoint: checkpoint.id,
            events: checkpoint.events,
            digest: checkpoint.digest,
          });
      })
      .catch((error: unknown) => logger.error('log checkpoint failed', { error: (error as Error).message }))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
