/**
 * How many webhook attempts may be in flight at once in one worker process. An attempt waiting on
 * an endpoint holds a socket and a little memory, nothing scarcer, so the limit of the process is
 * sized to sockets (`total`); within it, at most `perEndpoint` for one endpoint (one only, the
 * probe, while its circuit is open) and at most `perAccount` for one account and mode, so that
 * one account's endpoints cannot take the whole process from the others.
 */
export interface WebhookSlotLimits {
  perEndpoint: number;
  perAccount: number;
  total: number;
}

export type SlotClaim = { granted: true; release: () => void } | { granted: false; retryInMs: number };

/**
 * Waits between asking again: about as long as the oldest attempt in flight has been running (short
 * for an endpoint that answers fast), doubled each time the same job is turned away again, up to
 * 5 s. A job turned away by an open circuit comes back about when the probe in flight times out.
 */
const MIN_RETRY_MS = 50;
const MAX_RETRY_MS = 5_000;
/** Jobs whose turn-aways are remembered (oldest forgotten first). */
const REMEMBERED_JOBS = 10_000;

export class WebhookSlots {
  /** Start times (ms) of the attempts in flight, by endpoint and by account. */
  private readonly byEndpoint = new Map<string, number[]>();
  private readonly byAccount = new Map<string, number[]>();
  private inFlightTotal = 0;
  /** How often each job was turned away so far. */
  private readonly turnedAway = new Map<string, number>();

  constructor(
    private readonly limits: WebhookSlotLimits,
    /** How long an attempt may take at most (`WEBHOOK_TIMEOUT_MS`). */
    private readonly attemptTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `probeOnly`: the endpoint's circuit is open, so it gets one attempt at a time. */
  claim(endpointId: string, account: string, jobId: string, probeOnly = false): SlotClaim {
    const endpointStarts = this.byEndpoint.get(endpointId) ?? [];
    const accountStarts = this.byAccount.get(account) ?? [];
    if (probeOnly && endpointStarts.length > 0) {
      this.turnAway(jobId);
      const probeLeftMs = this.attemptTimeoutMs - (this.now() - Math.min(...endpointStarts));
      return { granted: false, retryInMs: withJitter(Math.max(MIN_RETRY_MS, probeLeftMs)) };
    }
    const full =
      endpointStarts.length >= this.limits.perEndpoint
        ? endpointStarts
        : accountStarts.length >= this.limits.perAccount
          ? accountStarts
          : this.inFlightTotal >= this.limits.total
            ? [...this.byAccount.values()].flat()
            : null;
    if (full) return { granted: false, retryInMs: this.retryDelay(full, this.turnAway(jobId)) };
    this.turnedAway.delete(jobId);

    const startedAt = this.now();
    endpointStarts.push(startedAt);
    accountStarts.push(startedAt);
    this.byEndpoint.set(endpointId, endpointStarts);
    this.byAccount.set(account, accountStarts);
    this.inFlightTotal++;
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        this.inFlightTotal--;
        this.remove(this.byEndpoint, endpointId, startedAt);
        this.remove(this.byAccount, account, startedAt);
      },
    };
  }

  /** Attempts in flight for an endpoint (for tests and metrics). */
  inFlight(endpointId: string): number {
    return this.byEndpoint.get(endpointId)?.length ?? 0;
  }

  private retryDelay(starts: number[], timesTurnedAway: number): number {
    const runningFor = Math.max(MIN_RETRY_MS, this.now() - Math.min(...starts));
    return withJitter(Math.min(MAX_RETRY_MS, runningFor * 2 ** (timesTurnedAway - 1)));
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

/** So that the turned-away jobs of one endpoint do not all come back at the same moment. */
const withJitter = (ms: number): number => Math.round(ms * (1 + Math.random() / 2));
