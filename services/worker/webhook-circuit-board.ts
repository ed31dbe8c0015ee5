import { everyDocument } from '../../packages/readstore/every-document.ts';
import type { Collection, Document, DocumentStore } from '../../packages/readstore/document-store.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { Platform } from '../platform.ts';
import type { CircuitChange, TimingOutEndpoint } from './webhook-circuits.ts';

/**
 * `webhook_circuits`: the endpoints whose circuit is open in some worker process, one document
 * each, written by the workers and read by the operator console and metrics of any process. Not
 * a read model (nothing in the log says it): operational state, in the state store.
 * Each document lapses unless its worker renews it, so a stopped worker's circuits disappear.
 */
export interface WebhookCircuitDoc extends Document {
  /** The endpoint's id. */
  id: string;
  /** Unix seconds the circuit opened (the list's order: most recently opened first). */
  created: number;
  accountId: string;
  mode: Mode;
  /** Attempts in a row that timed out. */
  timeouts: number;
  /** ms since epoch. */
  lastTimeoutAt: number;
  _expiresAt: number;
}

/** How often a worker renews the documents of its open circuits, and how long one lasts unrenewed. */
export const CIRCUIT_RENEW_MS = 30_000;
const CIRCUIT_LAPSES_AFTER_MS = 3 * CIRCUIT_RENEW_MS;
/** The most open circuits listed. */
const LISTED = 1_000;

export const webhookCircuits = (store: DocumentStore): Collection<WebhookCircuitDoc> =>
  store.collection<WebhookCircuitDoc>('webhook_circuits');

/** The endpoints whose circuit is open, most recently opened first. */
export async function openWebhookCircuits(store: DocumentStore): Promise<WebhookCircuitDoc[]> {
  return everyDocument(webhookCircuits(store), {}, { max: LISTED });
}

/** Writes one worker's circuit changes to `webhook_circuits`, in order, never failing an attempt. */
export class WebhookCircuitBoard {
  private writes: Promise<void> = Promise.resolve();
  private renewedAt = 0;

  constructor(private readonly platform: Platform) {}

  changed(change: CircuitChange): void {
    const collection = webhookCircuits(this.platform.stateStore);
    if (change.change === 'closed')
      this.write(() => collection.delete(change.circuit.endpointId).then(() => undefined));
    else this.write(() => collection.put(circuitDoc(change.circuit)));
  }

  /** Renews the documents of the open circuits, at most every CIRCUIT_RENEW_MS (called by every scan). */
  renew(open: TimingOutEndpoint[], now = Date.now()): void {
    if (now - this.renewedAt < CIRCUIT_RENEW_MS) return;
    this.renewedAt = now;
    const collection = webhookCircuits(this.platform.stateStore);
    for (const circuit of open) this.write(() => collection.put(circuitDoc(circuit, now)));
  }

  private write(operation: () => Promise<void>): void {
    // What the console shows is a convenience: a store briefly away must not fail a delivery.
    // The next change or renewal writes it again.
    this.writes = this.writes.then(operation).catch(() => undefined);
  }
}

const circuitDoc = (circuit: TimingOutEndpoint, now = Date.now()): WebhookCircuitDoc => ({
  id: circuit.endpointId,
  created: Math.floor(circuit.openedAt / 1000),
  accountId: circuit.accountId,
  mode: circuit.mode,
  timeouts: circuit.timeouts,
  lastTimeoutAt: circuit.lastTimeoutAt,
  _expiresAt: now + CIRCUIT_LAPSES_AFTER_MS,
});
