import type { EnqueueOptions } from '../../packages/jobs/job-queue.ts';
import type { ReadModelCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import { dueBy, type DueListKeys } from '../../projections/due-list.ts';
import type { Platform } from '../platform.ts';

/** One piece of background work that has fallen due, with the deterministic id that deduplicates it. */
export interface DueWork {
  queue: string;
  name: string;
  /** Deterministic (e.g. subscription + period): enqueuing it twice runs it once. */
  jobId: string;
  data: unknown;
  options?: Omit<EnqueueOptions, 'jobId'>;
}

/**
 * Where due work is found: read models, never the queue itself (`docs/architecture.md`, "Jobs are
 * derived from state"). A lost queue, a restarted worker or a second scheduler loses and
 * duplicates nothing, because the next scan finds the same work under the same ids and the
 * processors' commands are idempotent.
 */
export interface DueWorkSource {
  readonly name: string;
  /** Work due at `now` (real time); bounded in size, the next scan picks up the rest. */
  findDue(now: Date): Promise<DueWork[]>;
}

/** Retries of a job whose command failed (a store briefly away); the scheduler finds it again anyway. */
export const DUE_JOB_RETRIES = { attempts: 3, backoff: { type: 'exponential', delayMs: 1000 } } as const;

/**
 * The first `limit` documents of a due list (`projections/due-list.ts`) due now or before the
 * next scan, earliest first, each with how long until it is due: enqueued with that delay, work
 * arrives on time however long the scan interval is.
 */
export async function dueBeforeNextScan<T extends Pick<DueListKeys, 'created'> & { id: string; dueAtMs: number }>(
  platform: Platform,
  dueList: ReadModelCollection<T>,
  now: Date,
  limit: number,
): Promise<{ due: T; delayMs: number }[]> {
  const nowMs = now.getTime();
  const horizonMs = nowMs + platform.config.schedulerIntervalMs;
  const page = await platform.readModels.collection(dueList).list({ created: dueBy(horizonMs), limit });
  return page.list
    .filter((due) => due.dueAtMs <= horizonMs)
    .map((due) => ({ due, delayMs: Math.max(0, due.dueAtMs - nowMs) }));
}
