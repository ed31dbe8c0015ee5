import { everyDocument } from '../../packages/readstore/every-document.ts';
import { dueBy } from '../../projections/due-list.ts';
import { webhookDueCollection, type WebhookDueDoc } from '../../projections/webhook-due-deliveries.ts';
import { webhookEndpointsCollection } from '../../projections/webhook-endpoints-projection.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import { jobOfDue, webhookAttemptWork, webhookJobId } from './webhook-delivery-job.ts';
import type { EndpointHealth } from './webhook-circuits.ts';
import { webhookDispatchOf, type WebhookDispatch } from './webhook-dispatch.ts';

/** At most this many attempts per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;
/**
 * How far one scan reads into the due list (pages of BATCH_SIZE) before it asks endpoint by
 * endpoint: not far, since what lies deeper is mostly the backlog of endpoints without room.
 */
const MAX_PAGES = 2;
/** How long the list of endpoints asked one by one is reused. */
const ENDPOINTS_REREAD_MS = 5_000;

/**
 * Webhook attempts due now, or before the next scan (enqueued with the remaining delay, so retries
 * keep their schedule however long the scan interval is), found in the `webhook_due` read model:
 * a delivery job lost with Redis, or with a worker that stopped, is found here again under the
 * same job id.
 *
 * Each endpoint gets only as many attempts handed out as it can take (`WebhookDispatch.limit`,
 * less its attempts handed out before and still due; one while its circuit is open), so the
 * backlog of an endpoint that never answers waits here, in the due list, and not in the queue. The due list is read earliest first; when that backlog fills
 * the pages read, the endpoints that have room are asked for their own due attempts one by one,
 * so that a healthy endpoint's new deliveries are never behind another's backlog. The batch takes
 * accounts in turn, and each account's endpoints in turn.
 */
export function webhookDueDeliveries(platform: Platform): DueWorkSource {
  const dispatch = webhookDispatchOf(platform);
  const endpoints = activeEndpoints(platform);

  return {
    name: 'webhook-deliveries',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizonMs = nowMs + platform.config.schedulerIntervalMs;
      // Asked for at each scan: a rebuild of the read model switches it to a new generation.
      const dueList = platform.readModels.collection(webhookDueCollection);
      dispatch.forgetLapsed();
      dispatch.board.renew(dispatch.circuits.open());

      const candidates = new Candidates(dispatch, horizonMs);
      let startingAfterId: string | undefined;
      let readToTheEnd = false;
      for (let page = 0; page < MAX_PAGES && candidates.size < BATCH_SIZE; page++) {
        const { list, hasMore } = await dueList.list({
          created: dueBy(horizonMs),
          limit: BATCH_SIZE,
          ...(startingAfterId !== undefined && { startingAfterId }),
        });
        for (const due of list) candidates.offer(due);
        readToTheEnd = !hasMore || list.length === 0 || list.at(-1)!.dueAtMs > horizonMs;
        if (readToTheEnd) break;
        startingAfterId = list.at(-1)!.id;
      }
      if (!readToTheEnd && candidates.size < BATCH_SIZE) {
        for (const endpointId of await endpoints.startingAnywhere(nowMs)) {
          if (candidates.size >= BATCH_SIZE) break;
          if (candidates.seen(endpointId)) continue;
          // Its attempts handed out and still due come first in its list and count against its limit.
          const limit = dispatch.limit(endpointId);
          if (limit === 0) continue;
          const { list } = await dueList.list({ filter: { endpointId }, created: dueBy(horizonMs), limit });
          for (const due of list) candidates.offer(due);
        }
      }

      // Enqueued in this order: endpoints known to answer first, probes of open circuits last.
      const byHealth = (due: WebhookDueDoc) => HEALTH_ORDER.indexOf(dispatch.circuits.health(due.endpointId));
      const batch = candidates.inTurns(BATCH_SIZE);
      return batch
        .map((due, turn) => ({ due, turn }))
        .sort((a, b) => byHealth(a.due) - byHealth(b.due) || a.turn - b.turn)
        .map(({ due }) => {
          const work = webhookAttemptWork(jobOfDue(due), due.dueAtMs, nowMs);
          dispatch.handOut(work.jobId, work.options?.delayMs ?? 0);
          return work;
        });
    },
  };
}

const HEALTH_ORDER: EndpointHealth[] = ['responsive', 'unknown', 'timing-out', 'open'];

/** The attempts a scan could hand out: each endpoint's earliest, as many as it has room for. */
class Candidates {
  /** Account (and mode) → endpoint → its attempts, in the order first seen. */
  private readonly byAccount = new Map<string, Map<string, WebhookDueDoc[]>>();
  private readonly seenEndpoints = new Set<string>();
  /** Attempts of each endpoint handed out earlier and still due. */
  private readonly stillDue = new Map<string, number>();
  size = 0;

  constructor(
    private readonly dispatch: WebhookDispatch,
    private readonly horizonMs: number,
  ) {}

  offer(due: WebhookDueDoc): void {
    if (due.dueAtMs > this.horizonMs) return;
    this.seenEndpoints.add(due.endpointId);
    // Already in the queue: it counts against the endpoint's limit, and is not enqueued again.
    if (this.dispatch.isHandedOut(webhookJobId(due))) {
      this.stillDue.set(due.endpointId, (this.stillDue.get(due.endpointId) ?? 0) + 1);
      return;
    }
    if (this.room(due.endpointId) === 0) return;
    const account = `${due.accountId}:${due.mode}`;
    const endpoints = this.byAccount.get(account) ?? new Map<string, WebhookDueDoc[]>();
    this.byAccount.set(account, endpoints);
    const attempts = endpoints.get(due.endpointId) ?? [];
    endpoints.set(due.endpointId, attempts);
    if (attempts.some((taken) => taken.deliveryId === due.deliveryId)) return;
    attempts.push(due);
    this.size++;
  }

  seen(endpointId: string): boolean {
    return this.seenEndpoints.has(endpointId);
  }

  /** How many more of the endpoint's attempts this scan may take. */
  room(endpointId: string): number {
    let taken = 0;
    for (const endpoints of this.byAccount.values()) taken += endpoints.get(endpointId)?.length ?? 0;
    return Math.max(0, this.dispatch.limit(endpointId) - (this.stillDue.get(endpointId) ?? 0) - taken);
  }

  /** Up to `limit` attempts: one of each account in turn, each account's endpoints in turn, earliest first within an endpoint. */
  inTurns(limit: number): WebhookDueDoc[] {
    const queues = [...this.byAccount.values()].map((endpoints) => [...endpoints.values()].map((list) => [...list]));
    const taken: WebhookDueDoc[] = [];
    const nextEndpoint = queues.map(() => 0);
    while (taken.length < limit && queues.some((endpoints) => endpoints.length > 0)) {
      for (const [account, endpoints] of queues.entries()) {
        if (taken.length >= limit || endpoints.length === 0) continue;
        const turn = nextEndpoint[account]! % endpoints.length;
        taken.push(endpoints[turn]!.shift()!);
        if (endpoints[turn]!.length === 0) endpoints.splice(turn, 1);
        else nextEndpoint[account] = turn + 1;
      }
    }
    return taken;
  }
}

/** The ids of every enabled endpoint, re-read every ENDPOINTS_REREAD_MS, handed out starting at a different one each time. */
function activeEndpoints(platform: Platform) {
  let ids: string[] = [];
  let readAt = -Infinity;
  let offset = 0;
  return {
    async startingAnywhere(nowMs: number): Promise<string[]> {
      if (nowMs - readAt >= ENDPOINTS_REREAD_MS) {
        readAt = nowMs;
        const endpoints = await everyDocument(platform.readModels.collection(webhookEndpointsCollection), {
          filter: { _deleted: false },
        });
        ids = endpoints.filter((endpoint) => endpoint.enabled).map((endpoint) => endpoint.id);
      }
      offset = ids.length === 0 ? 0 : (offset + 1) % ids.length;
      return [...ids.slice(offset), ...ids.slice(0, offset)];
    },
  };
}
