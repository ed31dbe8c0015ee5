import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { generate } from 'selfsigned';
import {
  ProcessorOutcomeUnknown,
  ProcessorUnreachable,
  type ProcessorAuthorizationRequest,
  type ProcessorRecord,
} from '../../packages/network/processors/processor.ts';
import { StripeRefused, StripeTakesNoCredits } from '../../packages/network/processors/stripe/stripe-failures.ts';
import { StripeProcessor } from '../../packages/network/processors/stripe/stripe-processor.ts';
import { startFaultyProxy, type FaultyProxy } from '../support/faulty-proxy.ts';
import { findLocalstripe, startLocalstripe, type Localstripe } from '../support/localstripe.ts';
import { freePort } from '../support/webhook-receiver.ts';

const VISA = '4242424242424242';
/** localstripe's cards: one its issuer declines, one that asks for 3-D Secure. */
const DECLINED = '4000000000000341';
const NEEDS_3DS = '4000002500003155';
const SECRET_KEY = `sk_test_${randomUUID().replaceAll('-', '')}`;
const TIMEOUT_MS = 1_500;

interface PeerIntent {
  id: string;
  status: string;
  amount: number;
  currency: string;
  capture_method: string;
  metadata: Record<string, string>;
  latest_charge: { id: string; captured: boolean; amount_refunded: number } | null;
}

describe('Stripe processor against localstripe', function () {
  this.timeout(30_000);
  let localstripe: Localstripe;

  before(async function () {
    const found = findLocalstripe();
    if ('missing' in found) {
      console.warn(
        `\n*** localstripe cannot run here (${found.missing}): the Stripe processor tests are SKIPPED. ***\n`,
      );
      this.skip();
    }
    localstripe = await startLocalstripe(found);
  });

  after(async () => {
    await localstripe?.stop();
  });

  function stripe(url = localstripe.url, timeoutMs = 5_000): StripeProcessor {
    return new StripeProcessor({ url, secretKey: SECRET_KEY, timeoutMs });
  }

  function payment(overrides: Partial<ProcessorAuthorizationRequest> = {}): ProcessorAuthorizationRequest {
    return {
      reference: `char_${randomUUID()}`,
      number: VISA,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 3,
      cvc: '123',
      amount: 1000,
      currency: 'EUR',
      capture: true,
      ...overrides,
    };
  }

  /** What localstripe holds, read with its own API (not through the adapter). */
  async function atPeer<T>(path: string): Promise<T> {
    const response = await fetch(`${localstripe.url}${path}`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
    expect(response.status, path).to.equal(200);
    return (await response.json()) as T;
  }

  async function intentsAtPeer(reference: string): Promise<PeerIntent[]> {
    const list = await atPeer<{ data: PeerIntent[] }>('/v1/payment_intents?limit=1000');
    return list.data.filter((intent) => intent.metadata.reference === reference);
  }

  /** A refund: one call to Stripe, so its failure is the transport's alone. */
  function aRefund() {
    return { reference: `re_${randomUUID()}`, processorId: 'pi_unknown', amount: 100, currency: 'EUR' };
  }

  async function rejection(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a rejection');
  }

  function expectNoSecrets(error: Error): void {
    const told = `${error.message}\n${inspect(error, { depth: 10 })}`;
    expect(told).not.to.include(SECRET_KEY);
    expect(told).not.to.include(VISA);
  }

  describe('payments', () => {
    it('authorizes and captures at once: one succeeded payment intent carrying the reference', async () => {
      const request = payment();
      const authorization = await stripe().authorize(request);

      expect(authorization).to.deep.include({ approved: true, decline: null, captured: true });
      const [intent, ...others] = await intentsAtPeer(request.reference);
      expect(others).to.have.length(0);
      expect(intent).to.deep.include({
        id: authorization.processorId,
        status: 'succeeded',
        amount: 1000,
        currency: 'eur',
        capture_method: 'automatic',
      });
      expect(intent?.latest_charge?.captured).to.equal(true);
    });

    it('authorizes only, then captures; a capture asked again after a lost answer is already done', async () => {
      const request = payment({ capture: false, amount: 2500 });
      const processor = stripe();
      const authorization = await processor.authorize(request);
      expect(authorization).to.deep.include({ approved: true, captured: false });
      const processorId = authorization.processorId!;
      expect((await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`)).status).to.equal('requires_capture');

      const capture = { reference: request.reference, processorId, amount: 2500, currency: 'EUR' };
      await processor.capture(capture);
      await processor.capture(capture);

      const intent = await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`);
      expect(intent.status).to.equal('succeeded');
      expect(intent.latest_charge).to.deep.include({ captured: true, amount_refunded: 0 });
    });

    it('refuses to capture an intent that was never authorized, and says so without the key', async () => {
      const request = payment({ number: DECLINED, capture: false });
      await stripe().authorize(request);
      const [declined] = await intentsAtPeer(request.reference);

      const error = await rejection(
        stripe().capture({ reference: request.reference, processorId: declined!.id, amount: 1000, currency: 'EUR' }),
      );
      expect(error).to.be.instanceOf(StripeRefused);
      expectNoSecrets(error);
    });

    it('refunds part, then the rest: two refunds at Stripe, each found again by its reference', async () => {
      const processor = stripe();
      const { processorId } = await processor.authorize(payment({ amount: 1000 }));
      const first = { reference: `re_${randomUUID()}`, processorId: processorId!, amount: 300, currency: 'EUR' };
      const rest = { reference: `re_${randomUUID()}`, processorId: processorId!, amount: 700, currency: 'EUR' };

      const partial = await processor.refund(first);
      expect(partial.status).to.equal('successful');
      expect((await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`)).latest_charge?.amount_refunded).to.equal(
        300,
      );
      const full = await processor.refund(rest);
      expect(full.status).to.equal('successful');
      expect((await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`)).latest_charge?.amount_refunded).to.equal(
        1000,
      );

      expect(await processor.findRefund(first.reference, processorId!)).to.deep.equal(partial);
      expect(await processor.findRefund(rest.reference, processorId!)).to.deep.equal(full);
      expect(await processor.findRefund(`re_${randomUUID()}`, processorId!)).to.equal(null);
    });

    it("answers a declined card with the spec's code and keeps Stripe's own", async () => {
      const request = payment({ number: DECLINED });
      const authorization = await stripe().authorize(request);

      expect(authorization.approved).to.equal(false);
      expect(authorization.decline).to.deep.include({ code: 'card_declined', processorCode: 'card_declined' });
      expect(authorization.decline?.message).to.be.a('string').with.length.above(0);
      const [intent] = await intentsAtPeer(request.reference);
      expect(intent?.status).to.equal('requires_payment_method');
      expect(authorization.processorId).to.equal(intent?.id);
      expect(await stripe().findAuthorization(request.reference)).to.deep.include({
        approved: false,
        processorId: intent?.id,
        decline: authorization.decline,
      });
    });

    it('answers a card whose issuer asks for 3-D Secure as authentication_required', async () => {
      const authorization = await stripe().authorize(payment({ number: NEEDS_3DS }));

      expect(authorization.approved).to.equal(false);
      expect(authorization.decline?.code).to.equal('authentication_required');
      expect(authorization.processorId).to.match(/^pi_/);
    });

    it('takes no credits: a refusal routing skips, without calling Stripe', async () => {
      const proxy = await startFaultyProxy(localstripe.url);
      try {
        const processor = stripe(proxy.url);
        const error = await rejection(
          processor.credit({
            reference: `cred_${randomUUID()}`,
            number: VISA,
            expMonth: 12,
            expYear: 2040,
            amount: 500,
            currency: 'EUR',
          }),
        );
        expect(error).to.be.instanceOf(StripeTakesNoCredits).and.instanceOf(ProcessorUnreachable);
        expect(error.message).to.match(/no card credits/);
        expect(await processor.findCredit(`cred_${randomUUID()}`)).to.equal(null);
        expect(proxy.forwarded).to.deep.equal([]);
      } finally {
        await proxy.stop();
      }
    });
  });

  describe('kept cards', () => {
    it('keeps a card as a payment method attached to a customer, and pays it off-session without a CVC', async () => {
      const reference = `vault_${randomUUID()}`;
      const kept = await stripe().keepCard({ reference, number: VISA, expMonth: 12, expYear: 2040, cvc: '123' });
      const [customer, paymentMethod] = kept.storedCard.split('/');
      expect(customer).to.match(/^cus_/);
      const method = await atPeer<{ customer: string; metadata: Record<string, string> }>(
        `/v1/payment_methods/${paymentMethod}`,
      );
      expect(method).to.deep.include({ customer, metadata: { reference } });
      // localstripe describes every card as a French Visa credit card.
      expect(kept.card).to.deep.equal({ brand: 'Visa', type: 'Credit Card', country: 'FR' });

      const request = payment({ storedCard: kept.storedCard, type: 'subsequent_recurring' });
      delete request.cvc;
      const paid = await stripe().authorize(request);
      expect(paid).to.deep.include({ approved: true, captured: true });
      const [intent] = await intentsAtPeer(request.reference);
      expect(intent).to.deep.include({ id: paid.processorId, status: 'succeeded' });
      expect((intent as PeerIntent & { customer: string; payment_method: string }).customer).to.equal(customer);
      expect((intent as PeerIntent & { customer: string; payment_method: string }).payment_method).to.equal(
        paymentMethod,
      );
    });

    it('does not keep a card Stripe declines to attach: a refusal, not a decline', async () => {
      const error = await rejection(
        stripe().keepCard({
          reference: `vault_${randomUUID()}`,
          number: '4000000000000002',
          expMonth: 12,
          expYear: 2040,
          cvc: '123',
        }),
      );
      expect(error).to.be.instanceOf(StripeRefused);
    });
  });

  describe('faults, lookups and idempotency keys', () => {
    let proxy: FaultyProxy;
    beforeEach(async () => {
      proxy = await startFaultyProxy(localstripe.url);
    });
    afterEach(async () => {
      await proxy.stop();
    });

    it('after a lost answer: the outcome is unknown within the timeout, then the lookup finds the one payment made', async () => {
      proxy.faultFor = (method, path) => (method === 'POST' && path === '/v1/payment_intents' ? 'lose-answer' : 'pass');
      const request = payment();
      const processor = stripe(proxy.url, TIMEOUT_MS);

      const started = Date.now();
      const error = await rejection(processor.authorize(request));
      const elapsed = Date.now() - started;

      expect(error).to.be.instanceOf(ProcessorOutcomeUnknown);
      expect(elapsed).to.be.within(TIMEOUT_MS - 100, TIMEOUT_MS + 3_000);
      expectNoSecrets(error);
      const intents = await intentsAtPeer(request.reference);
      expect(intents).to.have.length(1);
      expect(await processor.findAuthorization(request.reference)).to.deep.equal({
        approved: true,
        processorId: intents[0]?.id,
        decline: null,
        captured: true,
      });
    });

    it('after a 500: the outcome is unknown, and the lookup says Stripe made no payment', async () => {
      const answer500 = {
        status: 500,
        body: { error: { type: 'api_error', message: 'An unexpected error occurred' } },
      };
      proxy.faultFor = (method, path) => (method === 'POST' && path === '/v1/payment_intents' ? answer500 : 'pass');
      const request = payment();
      const processor = stripe(proxy.url);

      const error = await rejection(processor.authorize(request));

      expect(error).to.be.instanceOf(ProcessorOutcomeUnknown);
      expect(error.message).to.include('500');
      expectNoSecrets(error);
      expect(await processor.findAuthorization(request.reference)).to.equal(null);
      expect(await intentsAtPeer(request.reference)).to.have.length(0);
    });

    it('a processor that hangs on a capture: unknown once the timeout passes, and the capture can be settled later', async () => {
      const request = payment({ capture: false });
      const { processorId } = await stripe().authorize(request);
      proxy.faultFor = (method, path) => (path.endsWith('/capture') ? 'hang' : 'pass');
      const capture = { reference: request.reference, processorId: processorId!, amount: 1000, currency: 'EUR' };

      const started = Date.now();
      const error = await rejection(stripe(proxy.url, TIMEOUT_MS).capture(capture));

      expect(error).to.be.instanceOf(ProcessorOutcomeUnknown);
      expect(Date.now() - started).to.be.within(TIMEOUT_MS - 100, TIMEOUT_MS + 3_000);
      expect((await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`)).status).to.equal('requires_capture');
      await stripe().capture(capture);
      expect((await atPeer<PeerIntent>(`/v1/payment_intents/${processorId}`)).status).to.equal('succeeded');
    });

    it('a processor that hangs before any payment was attempted: unreachable, nothing taken', async () => {
      proxy.faultFor = () => 'hang';
      const request = payment();

      const error = await rejection(stripe(proxy.url, TIMEOUT_MS).authorize(request));

      expect(error).to.be.instanceOf(ProcessorUnreachable);
      expect(error.message).to.include('before any payment was attempted');
      expect(await intentsAtPeer(request.reference)).to.have.length(0);
    });

    it("answers Stripe's documented card error with the issuer's reason, the intent it made and Stripe's code", async () => {
      // localstripe declines with `card_declined` only; this is the 402 Stripe documents for an issuer's refusal.
      const insufficientFunds = {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
            payment_intent: { id: 'pi_documented', object: 'payment_intent', status: 'requires_payment_method' },
          },
        },
      };
      proxy.faultFor = (method, path) =>
        method === 'POST' && path === '/v1/payment_intents' ? insufficientFunds : 'pass';

      const authorization = await stripe(proxy.url).authorize(payment());

      expect(authorization).to.deep.equal({
        approved: false,
        processorId: 'pi_documented',
        decline: {
          code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
          processorCode: 'insufficient_funds',
        },
        captured: false,
      });
    });

    it('sends every creation with an idempotency key derived from the reference, the same on a retry', async () => {
      const processor = stripe(proxy.url);
      const request = payment({ capture: false });
      const { processorId } = await processor.authorize(request);
      await processor.capture({
        reference: request.reference,
        processorId: processorId!,
        amount: 1000,
        currency: 'EUR',
      });
      const refund = { reference: `re_${randomUUID()}`, processorId: processorId!, amount: 400, currency: 'EUR' };
      await processor.refund(refund);
      await processor.findRefund(refund.reference, processorId!);
      const firstRound = proxy.forwarded.splice(0);
      await processor.authorize(request);

      expect(firstRound).to.deep.equal([
        { request: 'POST /v1/payment_methods', idempotencyKey: `${request.reference}:payment_method` },
        { request: 'POST /v1/payment_intents', idempotencyKey: `${request.reference}:payment_intent` },
        { request: `POST /v1/payment_intents/${processorId}/capture`, idempotencyKey: `${request.reference}:capture` },
        { request: 'POST /v1/refunds', idempotencyKey: `${refund.reference}:refund` },
        { request: 'GET /v1/refunds', idempotencyKey: null },
      ]);
      expect(proxy.forwarded).to.deep.equal(firstRound.slice(0, 2));
    });

    it('finds nothing for a reference Stripe never saw', async () => {
      expect(await stripe().findAuthorization(`char_${randomUUID()}`)).to.equal(null);
    });
  });

  describe('failures before Stripe', () => {
    it('a port where nothing listens: unreachable, without the key or the card in the error', async () => {
      const closed = await freePort();
      const processor = stripe(`http://127.0.0.1:${closed}`);

      const refusedRefund = await rejection(processor.refund(aRefund()));
      expect(refusedRefund).to.be.instanceOf(ProcessorUnreachable);
      expect(refusedRefund.message).to.include('ECONNREFUSED');
      const refusedPayment = await rejection(processor.authorize(payment()));
      expect(refusedPayment).to.be.instanceOf(ProcessorUnreachable);
      expectNoSecrets(refusedPayment);
    });

    it('a host that does not resolve: unreachable', async () => {
      const error = await rejection(stripe('http://stripe-processor-test.invalid').refund(aRefund()));

      expect(error).to.be.instanceOf(ProcessorUnreachable);
      expect(error.message).to.match(/ENOTFOUND|EAI_AGAIN/);
    });

    it('a certificate that does not verify: unreachable, and the request was never sent', async () => {
      const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keySize: 2048 });
      const requests: string[] = [];
      const server = createHttpsServer({ cert: pems.cert, key: pems.private }, (request, response) => {
        requests.push(`${request.method} ${request.url}`);
        response.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      try {
        const { port } = server.address() as AddressInfo;
        const error = await rejection(stripe(`https://127.0.0.1:${port}`).refund(aRefund()));

        expect(error).to.be.instanceOf(ProcessorUnreachable);
        expect(error.message).to.match(/SELF_SIGNED|CERT/);
        expect(requests).to.deep.equal([]);
        expectNoSecrets(error);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('a key Stripe refuses: a refusal, and the key is not in the error', async () => {
      const wrongKey = `rk_wrong_${randomUUID()}`;
      const processor = new StripeProcessor({ url: localstripe.url, secretKey: wrongKey, timeoutMs: 5_000 });
      const error = await rejection(processor.authorize(payment()));

      expect(error).to.be.instanceOf(StripeRefused).and.instanceOf(ProcessorUnreachable);
      expect((error as StripeRefused).status).to.equal(401);
      expect(inspect(error, { depth: 10 })).not.to.include(wrongKey);
    });
  });

  describe('records', () => {
    it('lists the payments and refunds made in the window, with references, amounts and statuses', async () => {
      const processor = stripe();
      const from = new Date();
      const captured = payment({ amount: 1200 });
      const held = payment({ amount: 800, capture: false });
      const declined = payment({ number: DECLINED, amount: 400 });
      const capturedAt = (await processor.authorize(captured)).processorId!;
      const heldAt = (await processor.authorize(held)).processorId!;
      await processor.authorize(declined);
      const refund = { reference: `re_${randomUUID()}`, processorId: capturedAt, amount: 200, currency: 'EUR' };
      const { processorRefundId } = await processor.refund(refund);
      const to = new Date();

      const records: ProcessorRecord[] = [];
      for await (const record of processor.records({ from, to })) records.push(record);
      const byReference = (reference: string) => records.filter((record) => record.reference === reference);

      expect(byReference(captured.reference)).to.deep.equal([
        {
          kind: 'charge',
          processorId: capturedAt,
          reference: captured.reference,
          chargeProcessorId: null,
          amount: 1200,
          currency: 'EUR',
          status: 'successful',
          amountRefunded: 200,
          created: byReference(captured.reference)[0]?.created,
        },
      ]);
      expect(
        byReference(held.reference).map(({ processorId, status, amountRefunded }) => ({
          processorId,
          status,
          amountRefunded,
        })),
      ).to.deep.equal([{ processorId: heldAt, status: 'successful', amountRefunded: 0 }]);
      expect(byReference(declined.reference).map(({ status, amount }) => ({ status, amount }))).to.deep.equal([
        { status: 'failed', amount: 400 },
      ]);
      expect(byReference(refund.reference)).to.deep.equal([
        {
          kind: 'refund',
          processorId: processorRefundId,
          reference: refund.reference,
          chargeProcessorId: capturedAt,
          amount: 200,
          currency: 'EUR',
          status: 'successful',
          amountRefunded: 0,
          created: byReference(refund.reference)[0]?.created,
        },
      ]);
      for (const record of records) {
        expect(record.created.getTime()).to.be.within(Math.floor(from.getTime() / 1000) * 1000, to.getTime() + 1000);
      }
    });

    it('leaves out what was made outside the window', async () => {
      const processor = stripe();
      const request = payment();
      await processor.authorize(request);
      const later = new Date(Date.now() + 5_000);

      const records: ProcessorRecord[] = [];
      for await (const record of processor.records({ from: later, to: new Date(later.getTime() + 60_000) })) {
        records.push(record);
      }

      expect(records).to.deep.equal([]);
    });
  });
});
