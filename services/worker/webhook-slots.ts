/**
 * How many webhook attempts may be in flight at once in one worker process: at most `perEndpoint`
 * for one endpoint, so that a slow or dead endpoint only delays its own deliveries, and at most
 * `perAccount` for one account and mode, so that one account's many endpoints cannot take every
 * slot of the worker from the others.
 */
export interface WebhookSlotLimits {
  perEndpoint: number;
  perAccount: number;
}

export type SlotClaim = { granted: true; release: () => void } | { granted: false; retryInMs: number };

/**
 * Waits between asking again: about as long as the oldest attempt in flight has been running (short
 * for an endpoint that answers fast), doubled each time the same job is turned away again, up to
 * 5 s: the backlog of an endpoint that never answers costs the queue little.
 */
const MIN_RETRY_MS = 50;
const MAX_RETRY_MS = 5_000;
/** Jobs whose turn-aways are remembered (oldest forgotten first). */
const REMEMBERED_JOBS = 10_000;

export class WebhookSlots {
  /** Start times (ms) of the attempts in flight, by endpoint and by account. */
  private readonly byEndpoint = new Map<string, number[]>();
  private readonly byAccount = new Map<string, number[]>();
  /** How often each job was turned away so far. */
  private readonly turnedAway = new Map<string, number>();

  constructor(
    private readonly limits: WebhookSlotLimits,
    private readonly now: () => number = Date.now,
  ) {}

  claim(endpointId: string, account: string, jobId: string): SlotClaim {
    const endpointStarts = this.byEndpoint.get(endpointId) ?? [];
    const accountStarts = this.byAccount.get(account) ?? [];
    const full =
      endpointStarts.length >= this.limits.perEndpoint
        ? endpointStarts
        : accountStarts.length >= this.limits.perAccount
          ? accountStarts
          : null;
    if (full) return { granted: false, retryInMs: this.retryDelay(full, this.turnAway(jobId)) };
    this.turnedAway.delete(jobId);

    const startedAt = this.now();
    endpointStarts.push(startedAt);
    accountStarts.push(startedAt);
    this.byEndpoint.set(endpointId, endpointStarts);
    this.byAccount.set(account, accountStarts);
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        this.remove(this.byEndpoint, endpointId, startedAt);
        this.remove(this.byAccount, account, startedAt);
      },
    };
  }

  /** Attempts in flight for an endpoint (for tests and metrics). */
  inFlight(endpointId: string): number {
    return this.byEndpoint.get(endpointId)?.length ?? 0;
  }

  /** With jitter, so that the turned-away jobs of one endpoint do not all come back at the same moment. */
  private retryDelay(starts: number[], timesTurnedAway: number): number {
    const runningFor = Math.max(MIN_RETRY_MS, this.now() - Math.min(...starts));
    const delay = Math.min(MAX_RETRY_MS, runningFor * 2 ** (timesTurnedAway - 1));
    return Math.round(delay * (1 + Math.random() / 2));
  }

  private turnAway(jobId: string): number {
    const times = (this.turnedAway.get(jobId) ?? 0) + 1;
    this.turnedAway.delete(jobId);
    this.turnedAway.set(jobId, times);
    if (this.turnedAway.size > REMEMBERED_JOBS) this.turnedAway.delete(this.turnedAway.keys().next().value!);
    return times;
  }

  private remove(map: Map<string, number[]>, key: string, startedAt: number): void {
    const starts = map.get(key);
    if (!starts) return;
    starts.splice(starts.indexOf(startedAt), 1);
    if (starts.length === 0) map.delete(key);
  }
}
