import type { EventUpcaster, RecordedData } from '../event-upcasting.ts';

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

const cardCarryingEventTypes = [
  'CardAdded',
  'TokenCreated',
  'ChargeSucceeded',
  'ChargeFailed',
  'CreditSucceeded',
  'CreditFailed',
] as const;

export const cardExpiryAsSentUpcasters: EventUpcaster[] = [
  ...cardCarryingEventTypes.map((eventType) => ({ eventType, fromVersion: 1, upcast: withCardExpiryAsText })),
  { eventType: 'CardUpdated', fromVersion: 1, upcast: withChangedExpiryAsText },
];
