import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publicObjects } from '../../services/resources/registries.ts';
import { blacklistRuleEventTypes } from '../../packages/domain/blacklist/blacklist-events.ts';
import { chargeEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { chargeAuthorizationEventTypes } from '../../packages/domain/charge/charge-authorization.ts';
import { creditTransferEventTypes } from '../../packages/domain/credit/credit-transfer.ts';
import { paymentMethodChargeEventTypes } from '../../packages/domain/charge/payment-method-charge.ts';
import { paymentMethodEventTypes } from '../../packages/domain/payment-method/payment-method-events.ts';
import { fileEventTypes } from '../../packages/domain/file/file-events.ts';
import { creditEventTypes } from '../../packages/domain/credit/credit-events.ts';
import { disputeEventTypes } from '../../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import { networkOutcomeEventTypes } from '../../packages/domain/charge/network-outcome-events.ts';
import { crossSaleOfferEventTypes } from '../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { customerEventTypes } from '../../packages/domain/customer/customer-events.ts';
import { tokenEventTypes } from '../../packages/domain/token/token-events.ts';
import { accountEventTypes } from '../../packages/domain/account/account-events.ts';
import { planEventTypes } from '../../packages/domain/plan/plan-events.ts';
import { subscriptionEventTypes } from '../../packages/domain/subscription/subscription-events.ts';
import { testClockEventTypes } from '../../packages/domain/test-clock/test-clock-events.ts';
import { webhookDeliveryEventTypes } from '../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { webhookEndpointEventTypes } from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';

const catalog = readFileSync(resolve(import.meta.dirname, '../../docs/events.md'), 'utf8');

describe('event catalog (docs/events.md)', () => {
  it('documents every domain event that produces public events, and the public types it produces', () => {
    for (const object of publicObjects) {
      for (const domainType of object.domainEventTypes) {
        const sample = (status: string) => ({ type: domainType, data: { status }, metadata: {} }) as never;
        const produced = [...object.produced(sample('successful')), ...object.produced(sample('failed'))];
        if (produced.length > 0) expect(catalog, domainType).to.include(`\`${domainType}\``);
        for (const type of produced) expect(catalog, `${domainType} → ${type}`).to.include(`\`${type}\``);
      }
    }
  });

  it('documents every domain event of every aggregate', () => {
    const all = [
      'AccountCreated',
      ...customerEventTypes,
      ...tokenEventTypes,
      ...chargeEventTypes,
      ...chargeAuthorizationEventTypes,
      ...paymentMethodChargeEventTypes,
      ...paymentMethodEventTypes,
      ...fileEventTypes,
      ...creditEventTypes,
      ...creditTransferEventTypes,
      ...blacklistRuleEventTypes,
    ];
    for (const type of all) expect(catalog, type).to.include(`| \`${type}\` |`);
  });

  it('documents the webhook endpoint and delivery events', () => {
    for (const type of [...webhookEndpointEventTypes, ...webhookDeliveryEventTypes])
      expect(catalog, type).to.include(`| \`${type}\` |`);
  });

  it('documents the dispute, fraud warning and network outcome events of the charge stream', () => {
    for (const type of [...networkOutcomeEventTypes, ...disputeEventTypes, ...fraudWarningEventTypes])
      expect(catalog, type).to.include(`| \`${type}\` |`);
  });

  it('documents the account, plan, subscription and test clock events', () => {
    for (const type of [...accountEventTypes, ...planEventTypes, ...subscriptionEventTypes, ...testClockEventTypes])
      expect(catalog, type).to.include(`| \`${type}\` |`);
  });

  it('documents the cross-sale offer events', () => {
    for (const type of crossSaleOfferEventTypes) expect(catalog, type).to.include(`| \`${type}\` |`);
  });
});
