import type { Platform } from '../platform.ts';
import { WebhookCircuitBoard } from './webhook-circuit-board.ts';
import { OPEN_AFTER_TIMEOUTS, WebhookCircuits, type EndpointHealth } from './webhook-circuits.ts';
import { WebhookSlots, type WebhookSlotLimits } from './webhook-slots.ts';

/**
 * Attempts in flight per worker process: sized to sockets, since an attempt waiting on an
 * endpoint holds nothing scarcer (file descriptors are many). One endpoint gets at most 4 at a time
 * (1 while its circuit is open) and one account and mode at most a quarter of the process.
 */
export const WEBHOOK_SLOT_LIMITS: WebhookSlotLimits = { perEndpoint: 4, perAccount: 250, total: 1_000 };

/**
 * Attempts of one endpoint the scheduler keeps handed out to the queue (enqueued and not finished):
 * many while its attempts end in time; two while that is not known yet (no attempt in this
 * process so far) or its last attempts timed out, so that a burst of new endpoints, or of endpoints
 * that stopped answering, holds few sockets and little work; one while its circuit is open. The
 * rest of a backlog waits in the due list.
 */
export const HANDED_OUT_PER_ENDPOINT: Record<EndpointHealth, number> = {
  responsive: 20,
  unknown: 2,
  'timing-out': 2,
  open: 1,
};

/**
 * After a probe times out, the next waits a while: WEBHOOK_TIMEOUT_MS after the first,
 * doubling with each one, at most MAX_PROBE_PAUSE_MS. An endpoint that stays away costs few
 * attempts; one that comes back gets its backlog within that pause.
 */
const MAX_PROBE_PAUSE_MS = 30_000;

/** How long a handed-out attempt counts after it fell due, should its end never be seen here (another worker ran it). */
const HANDED_OUT_GRACE_MS = 5_000;

/**
 * The webhook dispatch of one worker process, shared by its scheduler's due source and its
 * processor: which attempts are handed out to the queue, the slots in flight and each endpoint's
 * circuit. The due source hands out only what an endpoint can take, so an endpoint that never
 * answers has one attempt in the queue, not its whole backlog, and cannot crowd out the others.
 */
export class WebhookDispatch {
  readonly slots: WebhookSlots;
  readonly circuits: WebhookCircuits;
  readonly board: WebhookCircuitBoard;
  /** Job id → until when it counts as handed out, should its end never be seen here. */
  private readonly handedOut = new Map<string, number>();
  private readonly attemptTimeoutMs: number;

  constructor(
    platform: Platform,
    private readonly now: () => number = Date.now,
  ) {
    this.board = new WebhookCircuitBoard(platform);
    this.circuits = new WebhookCircuits((change) => this.board.changed(change), now);
    this.slots = new WebhookSlots(WEBHOOK_SLOT_LIMITS, platform.config.webhookTimeoutMs, now);
    this.attemptTimeoutMs = platform.config.webhookTimeoutMs;
  }

  /**
   * How many attempts of an endpoint may be handed out and still due now (0 while its open
   * circuit pauses between probes). Attempts handed out count only while their due entry is still
   * there: one that another worker ran is not held against the endpoint.
   */
  limit(endpointId: string): number {
    const health = this.circuits.health(endpointId);
    if (health === 'open' && this.now() < this.nextProbeAt(endpointId)) return 0;
    return HANDED_OUT_PER_ENDPOINT[health];
  }

  /** When an open circuit's next probe may start. */
  private nextProbeAt(endpointId: string): number {
    const circuit = this.circuits.circuit(endpointId);
    if (!circuit) return 0;
    const failedProbes = circuit.timeouts - OPEN_AFTER_TIMEOUTS;
    return circuit.lastTimeoutAt + Math.min(MAX_PROBE_PAUSE_MS, this.attemptTimeoutMs * 2 ** failedProbes);
  }

  isHandedOut(jobId: string): boolean {
    return this.handedOut.has(jobId);
  }

  /** An attempt enqueued (or put back) to run in `delayMs`. */
  handOut(jobId: string, delayMs: number): void {
    this.handedOut.set(jobId, this.now() + delayMs + this.attemptTimeoutMs + HANDED_OUT_GRACE_MS);
  }

  /** The job of an attempt has ended, whatever its outcome. */
  finished(jobId: string): void {
    this.handedOut.delete(jobId);
  }

  /** Forgets attempts handed out long ago whose end was not seen here (another worker ran them, or the queue lost them). */
  forgetLapsed(): void {
    const now = this.now();
    for (const [jobId, until] of this.handedOut) if (until <= now) this.handedOut.delete(jobId);
  }
}

const dispatches = new WeakMap<Platform, WebhookDispatch>();

/** The one dispatch of this process's platform. */
export function webhookDispatchOf(platform: Platform): WebhookDispatch {
  let dispatch = dispatches.get(platform);
  if (!dispatch) {
    dispatch = new WebhookDispatch(platform);
    dispatches.set(platform, dispatch);
  }
  return dispatch;
}
