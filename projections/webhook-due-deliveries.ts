import type { Mode } from '../packages/domain/mode.ts';
import { readModelCollection } from '../packages/projection/read-model-collection.ts';

/**
 * `webhook_due`: the deliveries that have an attempt to make, one document per pending delivery,
 * removed once it is delivered, failed or canceled. It is what the worker's scheduler scans, so
 * the scan costs what is due, not what was ever delivered.
 *
 * Lists are newest first by (`created`, `_seq`); this internal collection stores both negated
 * (`created` = -due second, `_seq` = -log order), so that a plain list gives the earliest due
 * first, oldest event first within a second, and `created >= -now` selects what is due by now.
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

export const webhookDueCollection = readModelCollection<WebhookDueDoc>('webhook_due');

export function webhookDueDoc(fields: WebhookDueFields, order: number): WebhookDueDoc {
  return { id: fields.deliveryId, created: -Math.floor(fields.dueAtMs / 1000), _seq: -order, ...fields };
}

/** The `created` range of due documents due by `nowMs` (whole seconds: callers check `dueAtMs`). */
export const dueBy = (nowMs: number): { gte: number } => ({ gte: -Math.floor(nowMs / 1000) });
