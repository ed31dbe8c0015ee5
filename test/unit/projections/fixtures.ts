import type { ChargeAttempt, ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import type { SubscriptionEvent } from '../../../packages/domain/subscription/subscription-events.ts';
import { cardSnapshot } from '../domain/card-snapshot-fixture.ts';

/** Unix seconds of an ISO time. */
export const seconds = (iso: string): number => Date.parse(iso) / 1000;

export const customerCreated = (customerId = 'cust_1'): CustomerEvent => ({
  type: 'CustomerCreated',
  data: { customerId, email: 'ann@example.com', description: null, metadata: {} },
});

export const cardAdded = (cardId: string, customerId = 'cust_1'): CustomerEvent => ({
  type: 'CardAdded',
  data: { customerId, cardId, card: cardSnapshot, source: { kind: 'details' }, merchantAccountId: null },
});

export const chargeAttempt = (overrides: Partial<ChargeAttempt> = {}): ChargeAttempt => ({
  chargeId: 'char_1',
  amount: 1000,
  currency: 'EUR',
  type: null,
  description: 'Order 1',
  customerId: null,
  subscriptionId: null,
  cardId: 'card_1',
  card: cardSnapshot,
  captured: true,
  shipping: null,
  billing: null,
  threeDSecureInfo: null,
  avsCheck: null,
  fraudDetails: { status: 'safe', score: 1 },
  merchantAccountId: null,
  metadata: {},
  networkTransactionId: 'ntx_1',
  ...overrides,
});

export const chargeSucceeded = (overrides: Partial<ChargeAttempt> = {}): ChargeEvent => ({
  type: 'ChargeSucceeded',
  data: chargeAttempt(overrides),
});

/** A monthly subscription of `cust_1` to `plan_1`, trialing until `trialEnd`. */
export const subscriptionCreated = (start: number, trialEnd: number): SubscriptionEvent => ({
  type: 'SubscriptionCreated',
  data: {
    subscriptionId: 'sub_1',
    customerId: 'cust_1',
    testClockId: null,
    planId: 'plan_1',
    quantity: 1,
    captureCharges: true,
    status: 'trialing',
    remainingBillingCycles: null,
    start,
    trialStart: start,
    trialEnd,
    currentPeriodStart: start,
    currentPeriodEnd: trialEnd,
    cycle: null,
    shipping: null,
    billing: null,
    merchantAccountId: null,
    metadata: {},
  },
});
