import type { EnqueueOptions } from '../../packages/jobs/job-queue.ts';

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
