import { expect } from 'chai';
import { z } from 'zod';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { chargesCollection, chargesProjection } from '../../../projections/charges-projection.ts';
import { customersCollection, customersProjection } from '../../../projections/customers-projection.ts';
import { publicObject } from '../../../projections/views/object-view.ts';
import type { PublicObject } from '../../../projections/views/object-view.ts';
import { cardSchema } from '../../../services/api/schemas/card-schemas.ts';
import { chargeSchema, refundSchema } from '../../../services/api/schemas/charge-schemas.ts';
import { customerSchema } from '../../../services/api/schemas/customer-schemas.ts';
import { cardAdded, chargeSucceeded, customerCreated } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';
import type { BlacklistRuleDoc } from '../../../projections/views/blacklist-rule-view.ts';
import type { CardDoc } from '../../../projections/views/card-view.ts';
import type { ChargeDoc } from '../../../projections/views/charge-view.ts';
import type { CreditDoc } from '../../../projections/views/credit-view.ts';
import type { CrossSaleOfferDoc } from '../../../projections/views/cross-sale-offer-view.ts';
import type { CustomerDoc } from '../../../projections/views/customer-view.ts';
import type { ChargeDisputeObject } from '../../../projections/views/dispute-view.ts';
import type { FraudWarningDoc } from '../../../projections/views/fraud-warning-view.ts';
import type { PlanDoc } from '../../../projections/views/plan-view.ts';
import type { RefundDoc } from '../../../projections/views/refund-view.ts';
import type { SubscriptionDoc } from '../../../projections/views/subscription-view.ts';
import type { TestClockDoc } from '../../../projections/views/test-clock-view.ts';
import type { TokenDoc } from '../../../projections/views/token-view.ts';
import type { WebhookEndpointDoc } from '../../../projections/views/webhook-endpoint-view.ts';
import type { WebhookDeliveryDoc } from '../../../projections/webhook-deliveries-projection.ts';
import type { blacklistRuleSchema } from '../../../services/api/schemas/blacklist-schemas.ts';
import type { chargeDisputeSchema } from '../../../services/api/schemas/charge-dispute-schema.ts';
import type { creditSchema } from '../../../services/api/schemas/credit-schemas.ts';
import type { crossSaleOfferSchema } from '../../../services/api/schemas/cross-sale-offer-schemas.ts';
import type { fraudWarningSchema } from '../../../services/api/schemas/fraud-warning-schemas.ts';
import type { planSchema } from '../../../services/api/schemas/plan-schemas.ts';
import type { subscriptionSchema } from '../../../services/api/schemas/subscription-schemas.ts';
import type { testClockSchema } from '../../../services/api/schemas/test-clock-schemas.ts';
import type { tokenSchema } from '../../../services/api/schemas/token-schemas.ts';
import type { webhookEndpointSchemas } from '../../../services/api/schemas/webhook-endpoint-schemas.ts';

type WebhookSchemas = ReturnType<typeof webhookEndpointSchemas>;

/** Keys of a union member or of any member (for the blacklist rule's one-of attributes). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/**
 * What a stored document shows clients matches the response schema: the same fields, no more and
 * no fewer (`fields`), and every value the document may hold is one the schema accepts (`values`),
 * except for the `Unchecked` fields, whose values the document types more loosely than the schema.
 */
type Conforms<Doc, Schema extends z.ZodType, Unchecked extends string = never> = {
  fields: [
    Exclude<KeysOf<PublicObject<Doc>>, KeysOf<z.output<Schema>>>,
    Exclude<KeysOf<z.output<Schema>>, KeysOf<PublicObject<Doc>>>,
  ] extends [never, never]
    ? true
    : {
        onlyInDocument: Exclude<KeysOf<PublicObject<Doc>>, KeysOf<z.output<Schema>>>;
        onlyInSchema: Exclude<KeysOf<z.output<Schema>>, KeysOf<PublicObject<Doc>>>;
      };
  values: Json<Omit<PublicObject<Doc>, Unchecked>> extends Omit<z.output<Schema>, Unchecked>
    ? true
    : { mismatched: Mismatched<Json<Omit<PublicObject<Doc>, Unchecked>>, z.output<Schema>> };
};

/** A value as JSON carries it: named interfaces become plain object types (as records are). */
type Json<T> = T extends (infer Item)[] ? Json<Item>[] : T extends object ? { [Key in keyof T]: Json<T[Key]> } : T;

/** Fields whose document values the schema does not accept. */
type Mismatched<Shown, Schema> = Shown extends unknown
  ? {
      [Field in keyof Shown]: Field extends keyof Schema ? (Shown[Field] extends Schema[Field] ? never : Field) : never;
    }[keyof Shown]
  : never;

/** Compiles only when both checks hold. */
const conforms = <_Check extends { fields: true; values: true }>(name: string): string => name;

/** Checked when compiling (`npm run typecheck`); listed at run time so the report shows what is covered. */
const checked = [
  conforms<Conforms<ChargeDoc, typeof chargeSchema>>('Charge'),
  conforms<Conforms<RefundDoc, typeof refundSchema>>('Refund'),
  conforms<Conforms<CardDoc, typeof cardSchema>>('Card'),
  conforms<Conforms<CustomerDoc, typeof customerSchema>>('Customer'),
  conforms<Conforms<ChargeDisputeObject, typeof chargeDisputeSchema>>('ChargeDispute'),
  conforms<Conforms<CreditDoc, typeof creditSchema>>('Credit'),
  conforms<Conforms<TokenDoc, typeof tokenSchema>>('Token'),
  conforms<Conforms<PlanDoc, typeof planSchema>>('Plan'),
  conforms<Conforms<SubscriptionDoc, typeof subscriptionSchema>>('Subscription'),
  conforms<Conforms<BlacklistRuleDoc, typeof blacklistRuleSchema>>('BlacklistRule'),
  conforms<Conforms<CrossSaleOfferDoc, typeof crossSaleOfferSchema>>('CrossSaleOffer'),
  conforms<Conforms<FraudWarningDoc, typeof fraudWarningSchema>>('FraudWarning'),
  conforms<Conforms<TestClockDoc, typeof testClockSchema>>('TestClock'),
  // Public event type names are derived from every resource's read side, which the views cannot
  // import; requests are validated against them on the way in.
  conforms<Conforms<WebhookEndpointDoc, WebhookSchemas['webhookEndpointSchema'], 'events'>>('WebhookEndpoint'),
  conforms<Conforms<WebhookDeliveryDoc, WebhookSchemas['webhookDeliverySchema'], 'eventType'>>('WebhookDelivery'),
];

describe('stored documents and response schemas', () => {
  it('agree on every field of every object the read models store (checked when compiling)', () => {
    expect(checked).to.have.length(15);
  });

  describe('a charge with a pending refund and a dispute', () => {
    const spec = projectionSpec(chargesProjection);

    it('is exactly what the Charge schema describes, nothing more', async () => {
      const charge = inStream('charge-char_1');
      await spec().given(
        charge(chargeSucceeded({ customerId: 'cust_1', type: 'customer_initiated' })),
        charge<ChargeEvent>({
          type: 'RefundRequested',
          data: { chargeId: 'char_1', refundId: 're_1', amount: 100, currency: 'EUR', reason: null, metadata: {} },
        }),
        charge<ChargeEvent>({
          type: 'DisputeOpened',
          data: {
            chargeId: 'char_1',
            disputeId: 'dp_1',
            amount: 1000,
            currency: 'EUR',
            reason: 'GENERAL',
            status: 'CHARGEBACK_NEW',
          },
        }),
      );
      const shown = publicObject((await spec().get(chargesCollection, 'char_1'))!);
      const strict = chargeSchema.extend({ refunds: z.array(refundSchema.strict()) }).strict();
      expect(strict.safeParse(shown).error?.issues ?? []).to.deep.equal([]);
    });
  });

  describe('a customer with a saved card', () => {
    const spec = projectionSpec(customersProjection);

    it('is exactly what the Customer schema describes, nothing more', async () => {
      const customer = inStream('customer-cust_1');
      await spec().given(customer(customerCreated()), customer(cardAdded('card_1')));
      const shown = publicObject((await spec().get(customersCollection, 'cust_1'))!);
      const strict = customerSchema.extend({ cards: z.array(cardSchema.strict()) }).strict();
      expect(strict.safeParse(shown).error?.issues ?? []).to.deep.equal([]);
    });
  });
});
