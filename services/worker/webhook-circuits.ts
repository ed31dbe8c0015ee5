import type { Mode } from '../../packages/domain/mode.ts';

/** After this many attempts in a row that got no answer within WEBHOOK_TIMEOUT_MS, the circuit opens. */
export const OPEN_AFTER_TIMEOUTS = 3;

/** The endpoint an attempt went to, as the circuits know it. */
export interface CircuitEndpoint {
  endpointId: string;
  accountId: string;
  mode: Mode;
}

/** An endpoint with attempts in a row that timed out; its circuit is open from OPEN_AFTER_TIMEOUTS on. */
export interface TimingOutEndpoint extends CircuitEndpoint {
  /** ms since epoch (for an open circuit: when it opened). */
  openedAt: number;
  /** Attempts in a row that timed out so far. */
  timeouts: number;
  lastTimeoutAt: number;
}

export type CircuitChange =
  { change: 'opened' | 'still-open'; circuit: TimingOutEndpoint } | { change: 'closed'; circuit: CircuitEndpoint };

/**
 * What a worker process knows of an endpoint: nothing yet (no attempt here since it started), its
 * last attempt ended in time (answered, or refused at once), some attempts in a row timed out, or
 * so many that its circuit is open.
 */
export type EndpointHealth = 'unknown' | 'responsive' | 'timing-out' | 'open';

/**
 * The circuit of each endpoint, in one worker process. Closed, an endpoint gets its share of
 * parallel attempts; after OPEN_AFTER_TIMEOUTS attempts in a row without an answer in time it
 * opens: from then on one attempt at a time probes it, so an endpoint that never answers holds one
 * socket instead of its share, and the rest of its backlog waits in the due list. Any attempt that
 * ends in time (an answer, whatever its status, or a refused connection: either way nothing hangs)
 * closes it.
 */
export class WebhookCircuits {
  private readonly timingOut = new Map<string, TimingOutEndpoint>();
  /** Endpoints whose last attempt here ended in time. */
  private readonly responsive = new Set<string>();

  constructor(
    private readonly onChange: (change: CircuitChange) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  isOpen(endpointId: string): boolean {
    return (this.timingOut.get(endpointId)?.timeouts ?? 0) >= OPEN_AFTER_TIMEOUTS;
  }

  health(endpointId: string): EndpointHealth {
    if (this.responsive.has(endpointId)) return 'responsive';
    if (this.isOpen(endpointId)) return 'open';
    return this.timingOut.has(endpointId) ? 'timing-out' : 'unknown';
  }

  /** Records how an attempt ended: timed out, or in time. */
  record(endpoint: CircuitEndpoint, timedOut: boolean): void {
    const known = this.timingOut.get(endpoint.endpointId);
    if (!timedOut) {
      this.responsive.add(endpoint.endpointId);
      if (!known) return;
      this.timingOut.delete(endpoint.endpointId);
      if (known.timeouts >= OPEN_AFTER_TIMEOUTS) this.onChange({ change: 'closed', circuit: endpoint });
      return;
    }
    this.responsive.delete(endpoint.endpointId);
    const now = this.now();
    const circuit: TimingOutEndpoint = known
      ? { ...known, timeouts: known.timeouts + 1, lastTimeoutAt: now }
      : { ...endpoint, openedAt: now, timeouts: 1, lastTimeoutAt: now };
    if (circuit.timeouts === OPEN_AFTER_TIMEOUTS) circuit.openedAt = now;
    this.timingOut.set(endpoint.endpointId, circuit);
    if (circuit.timeouts === OPEN_AFTER_TIMEOUTS) this.onChange({ change: 'opened', circuit });
    else if (circuit.timeouts > OPEN_AFTER_TIMEOUTS) this.onChange({ change: 'still-open', circuit });
  }

  /** An endpoint's run of timeouts, if it has one. */
  circuit(endpointId: string): TimingOutEndpoint | undefined {
    return this.timingOut.get(endpointId);
  }

  /** The open circuits of this process. */
  open(): TimingOutEndpoint[] {
    return [...this.timingOut.values()].filter((circuit) => circuit.timeouts >= OPEN_AFTER_TIMEOUTS);
  }
}
