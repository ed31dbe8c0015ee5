import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { CardholderDetails, CardSnapshot } from '../card/card-snapshot.ts';
import type { DomainEvent } from '../decider.ts';
import type { Metadata } from '../metadata.ts';
import { everyType } from '../event-types.ts';

export const customerResource = resourceIdentity({ name: 'customer', idPrefix: 'cust', stream: 'own' });
/** Saved cards live in the stream of their customer. */
export const cardResource = resourceIdentity({ name: 'card', idPrefix: 'card', stream: customerResource });

/** Stream of one customer and the cards saved for them: `customer-<customerId>`. */
export const customerStream = (customerId: string): string => streamName(customerResource, customerId);

export type CustomerCreated = DomainEvent<
  'CustomerCreated',
  {
    customerId: string;
    email: string;
    description: string | null;
    metadata: Metadata;
    /** Test mode only: the customer lives on this test clock (present only when set). */
    testClockId?: string;
  }
>;

/** Only the fields that changed are present. */
export type CustomerUpdated = DomainEvent<
  'CustomerUpdated',
  {
    customerId: string;
    email?: string;
    description?: string | null;
    metadata?: Metadata;
  }
>;

export type CustomerDeleted = DomainEvent<'CustomerDeleted', { customerId: string }>;

/** How a saved card came to be: typed in, from a token, or from a successful charge. */
export type CardSource =
  { kind: 'details' } | { kind: 'token'; tokenId: string } | { kind: 'charge'; chargeId: string };

export type CardAdded = DomainEvent<
  'CardAdded',
  { customerId: string; cardId: string; card: CardSnapshot; source: CardSource; merchantAccountId: string | null }
>;

/** Fields of a saved card that an update may change; only changed ones are present. */
export interface CardChanges extends Partial<CardholderDetails> {
  /** As the client sent them, like a new card's (see CardSnapshot). */
  expMonth?: string;
  expYear?: string;
  fastCredit?: { supported: boolean; updated: number };
}

export type CardUpdated = DomainEvent<'CardUpdated', { customerId: string; cardId: string } & CardChanges>;

export type CardDeleted = DomainEvent<'CardDeleted', { customerId: string; cardId: string }>;

/** The card subscriptions and default charges use; null when the customer has no card. */
export type DefaultCardChanged = DomainEvent<
  'DefaultCardChanged',
  { customerId: string; defaultCardId: string | null }
>;

export type CustomerEvent =
  CustomerCreated | CustomerUpdated | CustomerDeleted | CardAdded | CardUpdated | CardDeleted | DefaultCardChanged;

export const customerEventTypes = everyType<CustomerEvent>()([
  'CustomerCreated',
  'CustomerUpdated',
  'CustomerDeleted',
  'CardAdded',
  'CardUpdated',
  'CardDeleted',
  'DefaultCardChanged',
]);

/** The events of a customer's cards (its card objects fold them). */
export const cardEventTypes = everyType<CardAdded | CardUpdated | CardDeleted>()([
  'CardAdded',
  'CardUpdated',
  'CardDeleted',
]);
