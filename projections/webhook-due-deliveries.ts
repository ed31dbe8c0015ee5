import type { Mode } from '../packages/domain/mode.ts';
import { readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { dueListKeys } from './due-list.ts';

/**
 * `webhook_due`: the deliveries that have an attempt to make, one document per pending delivery,
 * removed once it is delivered, failed or canceled. It is what the worker's scheduler scans, so
 * the scan costs what is due, not what was ever delivered. A due list (`due-list.ts`).
 */
export interface WebhookDueFields {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The attempt to make next (1 for the first). */
  attempt: number;
  /** When it is due, ms since epoch. */
  dueAtMs: number;
  accountId: string;
  mode: Mode;
}

export interface WebhookDueDoc extends WebhookDueFields {
  /** The delivery's id. */
  id: string;
  created: number;
  _seq: number;
}

/** Listed earliest first, and by endpoint (the scheduler reads an endpoint's own due attempts). */
export const webhookDueCollection = readModelCollection<WebhookDueDoc>('webhook_due', { indexes: ['endpointId'] });

export function webhookDueDoc(fields: WebhookDueFields, order: number): WebhookDueDoc {
  return { id: fields.deliveryId, ...dueListKeys(fields.dueAtMs, order), ...fields };
}
