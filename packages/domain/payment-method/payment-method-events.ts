import type { Billing } from '../charge/charge-events.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';
import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { Metadata } from '../metadata.ts';

export const paymentMethodResource = resourceIdentity({ name: 'paymentMethod', idPrefix: 'pm', stream: 'own' });

/** Stream of one payment method: `paymentMethod-<pm_id>`. */
export const paymentMethodStream = (paymentMethodId: string): string =>
  streamName(paymentMethodResource, paymentMethodId);

/**
 * The alternative payment methods the service offers (docs/payments.md): wallets, bank redirects
 * and pay-later schemes of European and US processors. Anything else is refused.
 */
export const paymentMethodTypes = [
  'alipay',
  'apple_pay',
  'bancontact',
  'blik',
  'eps',
  'giropay',
  'google_pay',
  'ideal',
  'klarna',
  'p24',
  'paypal',
  'sofort',
  'trustly',
  'wechat_pay',
] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/**
 * Methods whose provider may confirm a payment only later (bank transfers): their redirect page
 * also offers a "processing" outcome, after which the charge waits (`nextAction: wait`).
 */
export const delayedConfirmationTypes: ReadonlySet<PaymentMethodType> = new Set(['blik', 'p24', 'sofort', 'trustly']);

/** What a payment method records; also what a charge made with it keeps (`paymentMethod` of the charge). */
export interface PaymentMethodDetails {
  paymentMethodId: string;
  /** `client_pm_…`: what a page's client-side library may know of the payment method. */
  clientObjectId: string;
  type: PaymentMethodType;
  billing: Billing | null;
  customerId: string | null;
  metadata: Metadata;
  /** Business time of creation (ISO): the same `created` wherever the payment method is shown. */
  createdAt: string;
}

export type PaymentMethodCreated = DomainEvent<'PaymentMethodCreated', PaymentMethodDetails>;
export type PaymentMethodDeleted = DomainEvent<'PaymentMethodDeleted', { paymentMethodId: string }>;

export type PaymentMethodEvent = PaymentMethodCreated | PaymentMethodDeleted;

export const paymentMethodEventTypes = everyType<PaymentMethodEvent>()([
  'PaymentMethodCreated',
  'PaymentMethodDeleted',
]);
