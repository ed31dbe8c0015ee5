import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { RefundSettled } from '../packages/domain/charge/charge-events.ts';
import { cardView } from './views/card-view.ts';
import { chargeView } from './views/charge-view.ts';
import { customerView } from './views/customer-view.ts';
import type { ObjectView } from './views/object-view.ts';

/** Public events one domain event produces: their `data` is the object of `view` after the event. */
export interface PublicEventRule {
  view: ObjectView;
  types: (event: RecordedEvent) => string[];
}

const always =
  (...types: string[]) =>
  (): string[] =>
    types;

const customer = customerView as unknown as ObjectView;
const card = cardView as unknown as ObjectView;
const charge = chargeView as unknown as ObjectView;

/** Every object view whose objects appear as event `data`. */
export const publicObjectViews: ObjectView[] = [customer, card, charge];

/**
 * Which public event types (spec: Events) each domain event produces, and with which object.
 * `docs/events.md` is the human-readable copy of this table; a test keeps both in step.
 */
export const publicEventRules: Readonly<Record<string, PublicEventRule[]>> = {
  CustomerCreated: [{ view: customer, types: always('CUSTOMER_CREATED') }],
  CustomerUpdated: [{ view: customer, types: always('CUSTOMER_UPDATED') }],
  CustomerDeleted: [{ view: customer, types: always('CUSTOMER_DELETED') }],
  DefaultCardChanged: [{ view: customer, types: always('CUSTOMER_UPDATED') }],
  CardAdded: [{ view: card, types: always('CUSTOMER_CARD_CREATED') }],
  CardUpdated: [{ view: card, types: always('CUSTOMER_CARD_UPDATED') }],
  CardDeleted: [{ view: card, types: always('CUSTOMER_CARD_DELETED') }],
  ChargeSucceeded: [{ view: charge, types: always('CHARGE_SUCCEEDED') }],
  ChargeFailed: [{ view: charge, types: always('CHARGE_FAILED') }],
  ChargeCaptured: [{ view: charge, types: always('CHARGE_CAPTURED') }],
  ChargeUpdated: [{ view: charge, types: always('CHARGE_UPDATED') }],
  // A refund shows on the charge once the network settled it: refunded, or failed (the charge's refund list changed).
  RefundSettled: [
    { view: charge, types: (event) => ((event.data as RefundSettled['data']).status === 'successful' ? ['CHARGE_REFUNDED'] : ['CHARGE_UPDATED']) },
  ],
  RefundUpdated: [{ view: charge, types: always('CHARGE_UPDATED') }],
};
