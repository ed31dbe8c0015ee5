import { expect } from 'chai';
import type { ChargeStreamEvent } from '../../../packages/domain/charge/charge-state.ts';
import {
  providerFailures,
  type PaymentMethodChargeAttempt,
} from '../../../packages/domain/charge/payment-method-charge.ts';
import type { FileEvent } from '../../../packages/domain/file/file-events.ts';
import type {
  PaymentMethodDetails,
  PaymentMethodEvent,
} from '../../../packages/domain/payment-method/payment-method-events.ts';
import { chargesCollection, chargesProjection } from '../../../projections/charges-projection.ts';
import { filesCollection, filesProjection } from '../../../projections/files-projection.ts';
import {
  paymentMethodChargesDueCollection,
  paymentMethodChargesDueProjection,
} from '../../../projections/payment-method-charges-due-projection.ts';
import { paymentMethodsCollection, paymentMethodsProjection } from '../../../projections/payment-methods-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const createdAt = '2026-02-01T09:00:00.000Z';
const method: PaymentMethodDetails = {
  paymentMethodId: 'pm_1',
  clientObjectId: 'client_pm_1',
  type: 'sofort',
  billing: { name: 'Ada' },
  customerId: 'cust_1',
  metadata: {},
  createdAt,
};
const attempt: PaymentMethodChargeAttempt = {
  chargeId: 'char_1',
  clientObjectId: 'client_char_1',
  amount: 1000,
  currency: 'EUR',
  type: null,
  description: 'Order 7',
  customerId: 'cust_1',
  subscriptionId: null,
  paymentMethod: method,
  captured: false,
  shipping: null,
  fraudDetails: { status: 'unknown', score: 0 },
  merchantAccountId: null,
  metadata: {},
  returnUrl: 'https://shop.example/return',
  redirectUrl: 'http://pay.example/payment-redirects/client_char_1',
  expiresAt: '2026-02-01T11:00:00.000Z',
};
const charge = inStream('charge-char_1');
const pending: ChargeStreamEvent = { type: 'ChargePending', data: attempt };
const processing: ChargeStreamEvent = {
  type: 'PaymentMethodChargeProcessing',
  data: { chargeId: 'char_1', settlesAt: '2026-02-01T10:05:00.000Z' },
};
const authorized: ChargeStreamEvent = { type: 'PaymentMethodChargeAuthorized', data: { chargeId: 'char_1' } };

describe('charges projection: payment-method charges', () => {
  const spec = projectionSpec(chargesProjection);

  it('renders a pending charge with its payment method, client object id and redirect, without a card', async () => {
    await spec().given(charge(pending, '2026-02-01T10:00:00.000Z'));
    const doc = (await spec().get(chargesCollection, 'char_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'char_1',
      created: seconds('2026-02-01T10:00:00.000Z'),
      objectType: 'charge',
      amount: 1000,
      currency: 'EUR',
      description: 'Order 7',
      status: 'pending',
      clientObjectId: 'client_char_1',
      paymentMethod: {
        id: 'pm_1',
        created: seconds(createdAt),
        objectType: 'paymentMethod',
        clientObjectId: 'client_pm_1',
        type: 'sofort',
        billing: { name: 'Ada' },
        customerId: 'cust_1',
        status: 'chargeable',
        metadata: {},
      },
      flow: {
        nextAction: 'redirect',
        returnUrl: 'https://shop.example/return',
        redirect: { redirectUrl: 'http://pay.example/payment-redirects/client_char_1' },
      },
      customerId: 'cust_1',
      subscriptionId: null,
      captured: false,
      refunded: false,
      amountRefunded: 0,
      refunds: [],
      disputed: false,
      fraudDetails: { status: 'unknown', score: 0 },
      shipping: null,
      billing: null,
      threeDSecureInfo: null,
      avsCheck: null,
      merchantAccountId: null,
      metadata: {},
    });
  });

  it('waits while processing, then succeeds with the capture asked for at creation', async () => {
    await spec().given(charge(pending), charge(processing));
    expect((await spec().get(chargesCollection, 'char_1'))!.flow).to.deep.equal({
      nextAction: 'wait',
      returnUrl: 'https://shop.example/return',
    });
    await spec().given(charge(authorized));
    const doc = (await spec().get(chargesCollection, 'char_1'))!;
    expect(doc).to.include({ status: 'successful', captured: false });
    expect(doc.flow).to.deep.equal({ nextAction: 'none', returnUrl: 'https://shop.example/return' });
    expect(doc).not.to.have.property('_captureWhenAuthorized');
    await spec().expectRebuildIdentical();
  });

  it('fails with the failure fields of a decline', async () => {
    await spec().given(
      charge(pending),
      charge<ChargeStreamEvent>({
        type: 'PaymentMethodChargeFailed',
        data: { chargeId: 'char_1', reason: 'declined', ...providerFailures.declined },
      }),
    );
    expect(await spec().get(chargesCollection, 'char_1')).to.include({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'The payment was declined at the payment method provider.',
      failureIssuerDeclineCode: null,
    });
  });
});

describe('payment-method charges due projection', () => {
  const spec = projectionSpec(paymentMethodChargesDueProjection);

  it('lists a pending charge at its expiry, then at its confirmation time, until it is decided', async () => {
    const before = Date.now();
    await spec().given(charge(pending, '2026-02-01T10:00:00.000Z'));
    const [atExpiry] = await spec().all(paymentMethodChargesDueCollection);
    // Due after the business-time delay (one hour), counted in real time from when it was recorded.
    expect(atExpiry!.dueAtMs).to.be.within(before + 3_600_000, Date.now() + 3_600_000);
    expect(atExpiry).to.include({ id: 'char_1', chargeId: 'char_1', _accountId: 'acct_spec', _mode: 'test' });
    await spec().given(charge(processing));
    const [atConfirmation] = await spec().all(paymentMethodChargesDueCollection);
    expect(atConfirmation!.dueAtMs).to.be.below(atExpiry!.dueAtMs);
    await spec().given(charge(authorized));
    expect(await spec().all(paymentMethodChargesDueCollection)).to.deep.equal([]);
  });
});

describe('payment methods projection', () => {
  const spec = projectionSpec(paymentMethodsProjection);

  it('renders a payment method without a deleted field, then soft-deleted and canceled', async () => {
    await spec().given(
      inStream('paymentMethod-pm_1')<PaymentMethodEvent>({ type: 'PaymentMethodCreated', data: method }, createdAt),
    );
    const live = (await spec().get(paymentMethodsCollection, 'pm_1'))!;
    expect(live).not.to.have.property('deleted');
    expect(live).to.include({ status: 'chargeable', created: seconds(createdAt), _deleted: false });
    await spec().given(
      inStream('paymentMethod-pm_1')<PaymentMethodEvent>({
        type: 'PaymentMethodDeleted',
        data: { paymentMethodId: 'pm_1' },
      }),
    );
    expect(await spec().get(paymentMethodsCollection, 'pm_1')).to.include({
      status: 'canceled',
      deleted: true,
      _deleted: true,
    });
  });
});

describe('files projection', () => {
  const spec = projectionSpec(filesProjection);

  it('renders what an upload recorded, and nothing of its hash', async () => {
    await spec().given(
      inStream('file-file_1')<FileEvent>(
        {
          type: 'FileUploaded',
          data: { fileId: 'file_1', purpose: 'dispute_evidence', size: 1234, type: 'pdf', sha256: 'ab'.repeat(32) },
        },
        '2026-02-01T12:00:00.000Z',
      ),
    );
    const doc = (await spec().get(filesCollection, 'file_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'file_1',
      created: seconds('2026-02-01T12:00:00.000Z'),
      objectType: 'file',
      purpose: 'dispute_evidence',
      size: 1234,
      type: 'pdf',
    });
  });
});
