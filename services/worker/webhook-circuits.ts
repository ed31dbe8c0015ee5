import type { Mode } from '../../packages/domain/mode.ts';

/** After this many attempts in a row without an answer (timeout, refused or reset connection), the circuit opens. */
export const OPEN_AFTER_UNANSWERED = 3;

/** The endpoint an attempt went to, as the circuits know it. */
export interface CircuitEndpoint {
  endpointId: string;
  accountId: string;
  mode: Mode;
}

/** An endpoint whose circuit is open: it gets one attempt at a time (a probe) until one is answered. */
export interface OpenCircuit extends CircuitEndpoint {
  /** ms since epoch. */
  openedAt: number;
  /** Attempts in a row without an answer so far. */
  unanswered: number;
  lastUnansweredAt: number;
}

export type CircuitChange =
  { change: 'opened' | 'still-open'; circuit: OpenCircuit } | { change: 'closed'; circuit: CircuitEndpoint };

/**
 * What a worker process knows of an endpoint: nothing yet (no attempt here since it started), its
 * last attempt was answered, some attempts in a row were not, or so many that its circuit is open.
 */
export type EndpointHealth = 'unknown' | 'answering' | 'unanswered' | 'open';

/**
 * The circuit of each endpoint, in one worker process. Closed, an endpoint gets its share of
 * parallel attempts; after `OPEN_AFTER_UNANSWERED` attempts in a row without an answer it opens:
 * from then on one attempt at a time probes it, so an endpoint that never answers holds one socket
 * instead of its share, and the rest of its backlog waits in the due list. Any answer (whatever
 * its status: the endpoint is there) closes it.
 */
export class WebhookCircuits {
  /** Endpoints with unanswered attempts in a row, open or not yet. */
  private readonly unanswered = new Map<string, OpenCircuit>();
  /** Endpoints whose last attempt here was answered. */
  private readonly answering = new Set<string>();

  constructor(
    private readonly onChange: (change: CircuitChange) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  isOpen(endpointId: string): boolean {
    return (this.unanswered.get(endpointId)?.unanswered ?? 0) >= OPEN_AFTER_UNANSWERED;
  }

  health(endpointId: string): EndpointHealth {
    if (this.answering.has(endpointId)) return 'answering';
    if (this.isOpen(endpointId)) return 'open';
    return this.unanswered.has(endpointId) ? 'unanswered' : 'unknown';
  }

  /** Records how an attempt ended: with an answer (any status) or without one. */
  record(endpoint: CircuitEndpoint, answered: boolean): void {
    const known = this.unanswered.get(endpoint.endpointId);
    if (answered) {
      this.answering.add(endpoint.endpointId);
      if (!known) return;
      this.unanswered.delete(endpoint.endpointId);
      if (known.unanswered >= OPEN_AFTER_UNANSWERED) this.onChange({ change: 'closed', circuit: endpoint });
      return;
    }
    this.answering.delete(endpoint.endpointId);
    const now = this.now();
    const circuit: OpenCircuit = known
      ? { ...known, unanswered: known.unanswered + 1, lastUnansweredAt: now }
      : { ...endpoint, openedAt: now, unanswered: 1, lastUnansweredAt: now };
    if (circuit.unanswered === OPEN_AFTER_UNANSWERED) circuit.openedAt = now;
    this.unanswered.set(endpoint.endpointId, circuit);
    if (circuit.unanswered === OPEN_AFTER_UNANSWERED) this.onChange({ change: 'opened', circuit });
    else if (circuit.unanswered > OPEN_AFTER_UNANSWERED) this.onChange({ change: 'still-open', circuit });
  }

  /** The open circuits of this process. */
  open(): OpenCircuit[] {
    return [...this.unanswered.values()].filter((circuit) => circuit.unanswered >= OPEN_AFTER_UNANSWERED);
  }
}
