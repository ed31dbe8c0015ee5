import type { ChargeEvent } from '../charge/charge-events.ts';
import type { CreditEvent } from '../credit/credit-events.ts';
import type { CustomerEvent } from '../customer/customer-events.ts';
import type { EventUpcaster, RecordedData } from '../event-upcasting.ts';
import type { TokenEvent } from '../token/token-events.ts';

/**
 * Version 2 of the events that carry a card keeps its expiry as the text the client sent
 * (`"05"`, `"30"`); version 1 kept the parsed numbers (5, 2030). The original text of a version-1
 * event is lost, so its numbers become their plain decimal text (5 → "5", 2030 → "2030"): exactly
 * what the API has always shown for that card, and what a client sending numbers would have sent.
 */
const expiryAsText = (value: unknown): unknown => (typeof value === 'number' ? String(value) : value);

function withCardExpiryAsText(data: RecordedData): RecordedData {
  const card = data.card as RecordedData | undefined;
  if (!card) return data;
  return { ...data, card: { ...card, expMonth: expiryAsText(card.expMonth), expYear: expiryAsText(card.expYear) } };
}

function withChangedExpiryAsText(data: RecordedData): RecordedData {
  const upcast = { ...data };
  if (upcast.expMonth !== undefined) upcast.expMonth = expiryAsText(upcast.expMonth);
  if (upcast.expYear !== undefined) upcast.expYear = expiryAsText(upcast.expYear);
  return upcast;
}

/** Event types whose data holds a card snapshot under `card`. */
type CardCarryingEvent = Extract<ChargeEvent | CreditEvent | CustomerEvent | TokenEvent, { data: { card: unknown } }>;

const cardCarryingEventTypes = [
  'CardAdded',
  'TokenCreated',
  'ChargeSucceeded',
  'ChargeFailed',
  'CreditSucceeded',
  'CreditFailed',
] as const satisfies readonly CardCarryingEvent['type'][];

export const cardExpiryAsSentUpcasters: EventUpcaster[] = [
  ...cardCarryingEventTypes.map((eventType) => ({ eventType, fromVersion: 1, upcast: withCardExpiryAsText })),
  { eventType: 'CardUpdated' satisfies CustomerEvent['type'], fromVersion: 1, upcast: withChangedExpiryAsText },
];
