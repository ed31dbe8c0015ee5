import type { CommandContext } from '../../packages/commands/command-context.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import type { Job } from '../../packages/jobs/job-queue.ts';

/**
 * A job's commands act as the worker, on real time, for the job's tenant; their events carry the
 * job's id as their request id and, unless the job was caused by something else, as their cause.
 */
export const jobContext = (job: Job, tenant: Tenant, causationId: string = job.id): CommandContext => ({
  accountId: tenant.accountId,
  mode: tenant.mode,
  actor: 'system:worker',
  requestId: `job:${job.id}`,
  causationId,
  now: () => new Date(),
});
