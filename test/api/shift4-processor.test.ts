import { expect } from 'chai';
import { Shift4Processor } from '../../packages/network/processors/shift4/shift4-processor.ts';
import {
  ProcessorOutcomeUnknown,
  ProcessorUnreachable,
  type ProcessorRecord,
} from '../../packages/network/processors/processor.ts';
import { closedPort, faultyProxy, hangingPeer } from '../support/faulty-peers.ts';
import { FUTURE_YEAR, type Charge, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

/**
 * The Shift4 adapter against a real peer: a second instance of this service in test mode, which
 * offers the Shift4 API. Every call is checked on the peer's side too.
 */
describe('Shift4 processor adapter against a peer in test mode', function () {
  this.timeout(120_000);
  const { api: peer, service, keys } = useService();

  const processor = (url = service.baseUrl, timeoutMs = 10_000) =>
    new Shift4Processor({ url, secretKey: keys.testSecretKey, timeoutMs });
  const card = (number: string) => ({ number, expMonth: 12, expYear: Number(FUTURE_YEAR), cvc: '123' });
  let sequence = 0;
  const reference = () => `char_adapterTest${Date.now()}${sequence++}`;

  before('the peer account may send credits', async () => {
    const result = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(result.code, result.stderr).to.equal(0);
  });

  it('authorizes, captures, refunds in part and finds each by reference; the peer holds exactly that', async () => {
    const shift4 = processor();
    const ref = reference();
    const authorized = await shift4.authorize({
      reference: ref,
      ...card('4242424242424242'),
      amount: 1500,
      currency: 'EUR',
      capture: false,
      description: 'adapter test',
    });
    expect(authorized).to.deep.include({ approved: true, decline: null, captured: false });
    const charge = (await peer.get<Charge>(`/charges/${authorized.processorId}`)).body;
    expect(charge).to.deep.include({ amount: 1500, currency: 'EUR', captured: false, status: 'successful' });
    expect(charge.metadata).to.deep.equal({ reference: ref });

    // The same reference again (a retry whose first answer was lost): the same charge, not a second.
    const again = await shift4.authorize({
      reference: ref,
      ...card('4242424242424242'),
      amount: 1500,
      currency: 'EUR',
      capture: false,
      description: 'adapter test',
    });
    expect(again.processorId).to.equal(authorized.processorId);
    expect(await shift4.findAuthorization(ref)).to.deep.equal(authorized);
    expect(await shift4.findAuthorization(`${ref}_never`)).to.equal(null);
    // Other parameters under the same reference: the processor's first charge must be looked up.
    const changed = await shift4
      .authorize({ reference: ref, ...card('4242424242424242'), amount: 1500, currency: 'EUR', capture: false })
      .catch((error: unknown) => error);
    expect(changed, JSON.stringify(changed)).to.be.instanceOf(ProcessorOutcomeUnknown);

    await shift4.capture({ reference: ref, processorId: authorized.processorId!, amount: 1500, currency: 'EUR' });
    await shift4.capture({ reference: ref, processorId: authorized.processorId!, amount: 1500, currency: 'EUR' });
    expect((await peer.get<Charge>(`/charges/${authorized.processorId}`)).body.captured).to.equal(true);

    const refund = await shift4.refund({
      reference: `re_${ref}`,
      processorId: authorized.processorId!,
      amount: 500,
      currency: 'EUR',
    });
    expect(refund.status).to.equal('successful');
    expect(await shift4.findRefund(`re_${ref}`, authorized.processorId!)).to.deep.equal(refund);
    expect(await shift4.findRefund(`re_${ref}_never`, authorized.processorId!)).to.equal(null);
    const refunded = (await peer.get<Charge>(`/charges/${authorized.processorId}`)).body;
    expect(refunded.refunds.map((r) => r.amount)).to.deep.equal([500]);

    const records: ProcessorRecord[] = [];
    for await (const record of shift4.records({
      from: new Date(Date.now() - 60_000),
      to: new Date(Date.now() + 60_000),
    }))
      records.push(record);
    expect(records.find((r) => r.processorId === authorized.processorId)).to.deep.include({
      kind: 'charge',
      reference: ref,
      amount: 1500,
      amountRefunded: 500,
      status: 'successful',
    });
    expect(records.find((r) => r.processorId === refund.processorRefundId)).to.deep.include({
      kind: 'refund',
      reference: `re_${ref}`,
      chargeProcessorId: authorized.processorId,
      amount: 500,
    });
  });

  it('maps a decline to the spec code and keeps the processor code; the peer records the declined charge', async () => {
    const ref = reference();
    const declined = await processor().authorize({
      reference: ref,
      ...card('4000000000000002'),
      amount: 700,
      currency: 'USD',
      capture: true,
    });
    expect(declined.approved).to.equal(false);
    expect(declined.decline).to.deep.equal({
      code: 'card_declined',
      message: 'The card was declined.',
      processorCode: '05',
    });
    expect((await peer.get<Charge>(`/charges/${declined.processorId}`)).body).to.deep.include({ status: 'failed' });
    expect(await processor().findAuthorization(ref)).to.deep.include({
      approved: false,
      processorId: declined.processorId,
    });
    const funds = await processor().authorize({
      reference: reference(),
      ...card('4000000000009995'),
      amount: 700,
      currency: 'USD',
      capture: true,
    });
    expect(funds.decline).to.deep.include({ code: 'insufficient_funds', processorCode: '51' });
  });

  it('sends a credit once per reference and finds it', async () => {
    const ref = `cr_${reference()}`;
    const credited = await processor().credit({
      reference: ref,
      ...card('4242424242424242'),
      amount: 900,
      currency: 'EUR',
    });
    expect(credited, JSON.stringify(credited)).to.deep.include({ approved: true, decline: null });
    await processor().credit({ reference: ref, ...card('4242424242424242'), amount: 900, currency: 'EUR' });
    const credits = (
      await peer.get<Page<{ id: string; metadata: Record<string, string> }>>('/credits', { query: { limit: '100' } })
    ).body.list;
    expect(credits.filter((credit) => credit.metadata.reference === ref).map((c) => c.id)).to.deep.equal([
      credited.processorId,
    ]);
    expect(await processor().findCredit(ref)).to.deep.equal(credited);
  });

  it('keeps a card on a customer of the peer, and charges the kept card without a CVC as a card-on-file payment', async () => {
    const shift4 = processor();
    const ref = reference();
    const kept = await shift4.keepCard({ reference: `vault_${ref}`, ...card('4242424242424242') });
    const [customerId, cardId] = kept.storedCard.split('/');
    const customer = (await peer.get<{ id: string; email: string; defaultCardId: string }>(`/customers/${customerId}`))
      .body;
    expect(customer).to.include({ defaultCardId: cardId, email: `vault_${ref}@card-on-file.invalid` });
    expect(kept.card).to.deep.equal({
      brand: 'Visa',
      type: 'Credit Card',
      country: 'US',
      issuer: 'Visa Test Bank',
    });

    const { cvc: _cvc, ...withoutCvc } = card('4242424242424242');
    const paid = await shift4.authorize({
      reference: ref,
      ...withoutCvc,
      storedCard: kept.storedCard,
      type: 'merchant_initiated',
      amount: 800,
      currency: 'EUR',
      capture: true,
    });
    expect(paid).to.deep.include({ approved: true, captured: true });
    const charge = (await peer.get<Charge & { type: string | null }>(`/charges/${paid.processorId}`)).body;
    expect(charge).to.include({ customerId, type: 'merchant_initiated', amount: 800 });
    expect(charge.card.id).to.equal(cardId);

    // The same card as bare details without a CVC: the peer refuses it, nothing is charged.
    const refused = await shift4.authorize({
      reference: `${ref}_bare`,
      ...withoutCvc,
      amount: 800,
      currency: 'EUR',
      capture: true,
    });
    expect(refused).to.deep.include({ approved: false, processorId: null });
    expect(refused.decline?.code).to.equal('processing_error');
  });

  it('refused connections are unreachable; a hang past the timeout and a 500 are unknown outcomes', async () => {
    const request = {
      reference: reference(),
      ...card('4242424242424242'),
      amount: 100,
      currency: 'EUR',
      capture: true,
    };
    const refusedAt = await closedPort();
    const refused = await processor(refusedAt)
      .authorize(request)
      .catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ProcessorUnreachable);
    expect(String(refused)).to.contain('ECONNREFUSED');

    const hanging = await hangingPeer();
    try {
      const started = Date.now();
      const hung = await processor(hanging.url, 500)
        .authorize(request)
        .catch((error: unknown) => error);
      expect(hung).to.be.instanceOf(ProcessorOutcomeUnknown);
      expect(String(hung)).to.contain('no answer within 500 ms');
      expect(Date.now() - started).to.be.below(5_000);
      expect(hanging.requests).to.deep.equal(['POST /charges']);
    } finally {
      await hanging.close();
    }

    const proxy = await faultyProxy(() => service.baseUrl, 'fail');
    try {
      const failed = await processor(proxy.url)
        .authorize(request)
        .catch((error: unknown) => error);
      expect(failed).to.be.instanceOf(ProcessorOutcomeUnknown);
      expect(String(failed)).to.contain('answered 500');
      // The peer took the payment: the lookup finds it, once.
      proxy.mode = 'pass';
      const found = await processor(proxy.url).findAuthorization(request.reference);
      expect(found).to.deep.include({ approved: true });
    } finally {
      await proxy.close();
    }
    for (const error of [refused]) expect(String(error)).to.not.contain(keys.testSecretKey);

    const wrongKey = new Shift4Processor({ url: service.baseUrl, secretKey: 'sk_test_wrong0000', timeoutMs: 5_000 });
    expect(await wrongKey.authorize(request).catch((error: unknown) => error)).to.be.instanceOf(ProcessorUnreachable);
  });
});
