import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import sinon from 'sinon';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { ApiClient } from '../support/api-client.ts';
import { findSecrets } from '../support/card-data-scan.ts';
import { closedPort, faultyProxy } from '../support/faulty-peers.ts';
import { findLocalstripe, startLocalstripe } from '../support/localstripe.ts';
import {
  cardDetails,
  createOtherAccount,
  type ApiError,
  type Charge,
  type Customer,
  type Page,
} from '../support/payments.ts';
import { removeDataDir, runCli, startService, type ServiceProcess } from '../support/service-process.ts';
import { chargesOf, createPlan, subscribe, waitUntil, type Subscription } from '../support/subscriptions.ts';
import { codeMailedTo } from '../support/remembered-card-codes.ts';
import { useService } from '../support/use-service.ts';

/** A live payment as the processor records it, read with the processor's own API. */
interface PeerPayment {
  id: string;
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'authorized';
  amountRefunded: number;
  /** The processor's customer whose kept card paid, when a kept card paid. */
  customer: string | null;
}

/** A processor as the tests see it: its API for the adapter, and its records read directly. */
interface Peer {
  kind: 'shift4' | 'stripe';
  url: string;
  secretKey: string;
  /** Every payment this service made there, by the reference in its metadata. */
  payments(): Promise<Map<string, PeerPayment[]>>;
  /** The expiry of the card the processor charged for the payment with this reference. */
  expiryPaidWith(reference: string): Promise<{ month: number; year: number }>;
  stop(): Promise<void>;
}

const MERCHANT_ORIGIN = 'http://shop.localhost:4100';

/** A second instance of this service in test mode: the Shift4 API. */
async function shift4Peer(): Promise<Peer> {
  const peer: ServiceProcess = await startService();
  const api = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
  const allowed = await runCli(['accounts', 'settings', peer.keys!.id, '--credits', 'allowed'], peer.dataDir);
  expect(allowed.code, allowed.stderr).to.equal(0);
  return {
    kind: 'shift4',
    url: peer.baseUrl,
    secretKey: peer.keys!.testSecretKey,
    async payments() {
      const found = new Map<string, PeerPayment[]>();
      let startingAfterId: string | undefined;
      for (;;) {
        const page = (
          await api.get<Page<Charge & { customerId: string | null }>>('/charges', {
            query: { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
          })
        ).body;
        for (const charge of page.list) {
          const reference = charge.metadata.reference;
          if (!reference) continue;
          const amountRefunded = charge.refunds
            .filter((refund) => refund.status === 'successful')
            .reduce((sum, refund) => sum + refund.amount, 0);
          found.set(reference, [
            ...(found.get(reference) ?? []),
            {
              id: charge.id,
              amount: charge.amount,
              currency: charge.currency,
              status: charge.status !== 'successful' ? 'failed' : charge.captured ? 'successful' : 'authorized',
              amountRefunded,
              customer: charge.customerId,
            },
          ]);
        }
        if (!page.hasMore) return found;
        startingAfterId = page.list.at(-1)!.id;
      }
    },
    async expiryPaidWith(reference) {
      const charges = (
        await api.get<Page<Charge & { card: { expMonth: string; expYear: string } }>>('/charges', {
          query: { limit: '100' },
        })
      ).body.list;
      const card = charges.find((charge) => charge.metadata.reference === reference)!.card;
      return { month: Number(card.expMonth), year: Number(card.expYear) };
    },
    async stop() {
      await peer.stop();
      removeDataDir(peer.dataDir);
    },
  };
}

interface StripeIntent {
  id: string;
  amount: number;
  currency: string;
  status: string;
  customer: string | null;
  metadata: Record<string, string>;
  /** An id, or the charge itself (localstripe expands it). */
  latest_charge: string | { id: string; amount_refunded: number } | null;
}

/** localstripe: the Stripe API. */
async function stripePeer(): Promise<Peer | { missing: string }> {
  const found = findLocalstripe();
  if ('missing' in found) return found;
  const localstripe = await startLocalstripe(found);
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${localstripe.url}${path}`, {
      headers: { authorization: `Bearer ${localstripe.secretKey}` },
    });
    expect(response.status, path).to.equal(200);
    return (await response.json()) as T;
  };
  return {
    kind: 'stripe',
    url: localstripe.url,
    secretKey: localstripe.secretKey,
    async payments() {
      const intents = (await get<{ data: StripeIntent[] }>('/v1/payment_intents?limit=1000')).data;
      const found = new Map<string, PeerPayment[]>();
      for (const intent of intents) {
        const reference = intent.metadata.reference;
        if (!reference) continue;
        const charge =
          typeof intent.latest_charge === 'string'
            ? await get<{ amount_refunded: number }>(`/v1/charges/${intent.latest_charge}`)
            : intent.latest_charge;
        found.set(reference, [
          ...(found.get(reference) ?? []),
          {
            id: intent.id,
            amount: intent.amount,
            currency: intent.currency.toUpperCase(),
            status:
              intent.status === 'succeeded'
                ? 'successful'
                : intent.status === 'requires_capture'
                  ? 'authorized'
                  : 'failed',
            amountRefunded: charge?.amount_refunded ?? 0,
            customer: intent.customer,
          },
        ]);
      }
      return found;
    },
    async expiryPaidWith(reference) {
      const intents = (
        await get<{ data: (StripeIntent & { payment_method: string })[] }>('/v1/payment_intents?limit=1000')
      ).data;
      const intent = intents.find((candidate) => candidate.metadata.reference === reference)!;
      const method = await get<{ card: { exp_month: number | string; exp_year: number | string } }>(
        `/v1/payment_methods/${intent.payment_method}`,
      );
      return { month: Number(method.card.exp_month), year: Number(method.card.exp_year) };
    },
    stop: () => localstripe.stop(),
  };
}

/**
 * Live mode end to end through each processor adapter and the routing in front of them: this
 * service (live keys) sends its payments to the account's processor, a second instance of itself
 * in test mode for Shift4 and localstripe for Stripe, and every scenario checks the objects on both
 * sides. Cards that come back without their CVC (a saved card, a token, a renewal, a checkout
 * payment) are paid as the card the processor kept when it came in.
 */
describe('live mode end to end through each processor', function () {
  this.timeout(180_000);
  const { api, service } = useService({ env: { SCHEDULER_INTERVAL_MS: '200' } });
  let cliOutput = '';

  for (const kind of ['shift4', 'stripe'] as const) {
    describe(`through the ${kind === 'shift4' ? 'Shift4' : 'Stripe'} adapter`, () => {
      let peer: Peer;

      before(async function () {
        const started = kind === 'shift4' ? await shift4Peer() : await stripePeer();
        if ('missing' in started) {
          console.warn(
            `\n*** localstripe cannot run here (${started.missing}): the Stripe end-to-end tests are SKIPPED. ***\n`,
          );
          this.skip();
        }
        peer = started;
      });
      after(async () => {
        await peer?.stop();
      });

      /** A fresh account of this service whose live mode sends to these processors, in this order. */
      async function liveAccount(name: string, ...processors: { kind: 'shift4' | 'stripe'; url: string }[]) {
        const { keys } = await createOtherAccount(api, service.dataDir, name);
        const settings = await runCli(
          ['accounts', 'settings', keys.id, '--credits', 'allowed', '--checkout-origins', MERCHANT_ORIGIN],
          service.dataDir,
        );
        expect(settings.code, settings.stderr).to.equal(0);
        for (const processor of processors.length > 0 ? processors : [{ kind, url: peer.url }]) {
          const added = await addProcessor(service.dataDir, keys.id, {
            kind: processor.kind,
            url: processor.url,
            secretKey: peer.secretKey,
            timeoutMs: 1500,
          });
          cliOutput += added.output;
        }
        return { keys, live: api.withKey(keys.liveSecretKey) };
      }

      /** Our live charges and the peer's payments for them agree one to one: amount, status, refunds. */
      async function expectSameOnBothSides(live: ApiClient): Promise<Map<string, PeerPayment>> {
        const ours = (await live.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list;
        const theirs = await peer.payments();
        const matched = new Map<string, PeerPayment>();
        for (const charge of ours) {
          const atPeer = theirs.get(charge.id) ?? [];
          const successful = atPeer.filter((payment) => payment.status !== 'failed');
          if (charge.status === 'successful') {
            expect(successful, `${charge.id}: one payment at the processor`).to.have.length(1);
            const [payment] = successful;
            expect(payment).to.deep.include({
              amount: charge.amount,
              currency: charge.currency,
              status: charge.captured ? 'successful' : 'authorized',
              amountRefunded: charge.refunds
                .filter((refund) => refund.status === 'successful')
                .reduce((sum, refund) => sum + refund.amount, 0),
            });
            matched.set(charge.id, payment!);
          } else {
            expect(successful, `${charge.id} (${charge.status}): nothing taken at the processor`).to.deep.equal([]);
          }
        }
        return matched;
      }

      it('charges a saved card, a customer’s default card and a token without their CVC, as the card the processor kept; captures and refunds them', async () => {
        const { keys, live } = await liveAccount(`Stored cards ${kind}`);
        const customer = await live.post<Customer>('/customers', {
          json: { email: 'payer@example.com', card: cardDetails('4242424242424242') },
        });
        expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
        const cardId = customer.body.defaultCardId!;

        const byDefault = await live.post<Charge & ApiError>('/charges', {
          json: { amount: 1200, currency: 'EUR', customerId: customer.body.id, type: 'merchant_initiated' },
        });
        expect(byDefault.status, JSON.stringify(byDefault.body)).to.equal(200);
        expect(byDefault.body).to.include({ status: 'successful', captured: true });
        expect(byDefault.body.card!.id).to.equal(cardId);

        const authorized = await live.post<Charge & ApiError>('/charges', {
          json: { amount: 2000, currency: 'EUR', customerId: customer.body.id, card: cardId, captured: false },
        });
        expect(authorized.status, JSON.stringify(authorized.body)).to.equal(200);
        expect(authorized.body).to.include({ status: 'successful', captured: false });
        expect((await live.post(`/charges/${authorized.body.id}/capture`)).status).to.equal(200);
        const partial = await live.post<{ status: string }>('/refunds', {
          json: { chargeId: authorized.body.id, amount: 500 },
        });
        expect(partial.body.status).to.equal('successful');
        const rest = await live.post<{ status: string }>('/refunds', { json: { chargeId: authorized.body.id } });
        expect(rest.body.status).to.equal('successful');

        const token = await live.post<{ id: string }>('/tokens', {
          json: cardDetails('5555555555554444'),
          key: keys.livePublicKey,
        });
        expect(token.status, JSON.stringify(token.body)).to.equal(200);
        const byToken = await live.post<Charge & ApiError>('/charges', {
          json: { amount: 900, currency: 'EUR', card: token.body.id },
        });
        expect(byToken.status, JSON.stringify(byToken.body)).to.equal(200);
        expect(byToken.body.status).to.equal('successful');

        if (peer.kind === 'shift4') {
          // A credit to the saved card: Shift4 takes credits, to the card it keeps too.
          const credited = await live.post<{ id: string; status: string } & ApiError>('/credits', {
            json: { amount: 400, currency: 'EUR', customerId: customer.body.id },
          });
          expect(credited.status, JSON.stringify(credited.body)).to.equal(200);
          expect(credited.body.status).to.equal('successful');
          const peerApi = new ApiClient(peer.url, peer.secretKey);
          const credits = (await peerApi.get<Page<{ amount: number; metadata: Record<string, string> }>>('/credits'))
            .body.list;
          expect(credits.filter((credit) => credit.metadata.reference === credited.body.id)).to.have.length(1);
        }

        const atPeer = await expectSameOnBothSides(live);
        expect([...atPeer.keys()]).to.have.members([byDefault.body.id, authorized.body.id, byToken.body.id]);
        // The saved card's payments were made with the card the processor keeps on its customer.
        const keptBy = atPeer.get(byDefault.body.id)!.customer;
        expect(keptBy).to.be.a('string');
        expect(atPeer.get(authorized.body.id)!.customer).to.equal(keptBy);
        expect(await live.get<Charge>(`/charges/${authorized.body.id}`).then((r) => r.body)).to.include({
          refunded: true,
          amountRefunded: 2000,
        });
        expect(findSecrets(service.dataDir, service.output() + cliOutput, [peer.secretKey])).to.deep.equal([]);
      });

      it('sends a saved card’s new expiry to the processor that keeps it before recording it, so the next payment carries it; a processor that does not take it fails the update, which changes nothing here', async () => {
        const proxy = await faultyProxy(() => peer.url, 'pass');
        try {
          const { live } = await liveAccount(`New expiry ${kind}`, { kind, url: proxy.url });
          const customer = await live.post<Customer>('/customers', {
            json: { email: 'renewed.card@example.com', card: cardDetails('4242424242424242') },
          });
          expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
          const cardPath = `/customers/${customer.body.id}/cards/${customer.body.defaultCardId!}`;
          const first = await live.post<Charge>('/charges', {
            json: { amount: 1000, currency: 'EUR', customerId: customer.body.id },
          });
          expect(first.body.status).to.equal('successful');
          const before = await peer.expiryPaidWith(first.body.id);
          expect(before.month).to.equal(12);
          const newYear = before.year + 2;

          // The processor answers 500: nothing is recorded here, the card keeps its old expiry.
          proxy.mode = 'fail';
          const failed = await live.post<ApiError>(cardPath, { json: { expMonth: '3', expYear: String(newYear) } });
          expect(failed.status, JSON.stringify(failed.body)).to.equal(502);
          expect(failed.body.error.type).to.equal('gateway_error');
          expect(failed.body.error.message).to.match(/new expiry could not be sent to processor .*nothing was changed/);
          const unchanged = (await live.get<{ expMonth: string; expYear: string }>(cardPath)).body;
          expect(unchanged).to.include({ expMonth: '12', expYear: String(before.year) });

          // Retried once the processor answers: recorded, and the next card-on-file payment there carries it.
          proxy.mode = 'pass';
          const updated = await live.post<{ expMonth: string; expYear: string } & ApiError>(cardPath, {
            json: { expMonth: '3', expYear: String(newYear) },
          });
          expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
          expect(updated.body).to.include({ expMonth: '3', expYear: String(newYear) });
          const next = await live.post<Charge>('/charges', {
            json: { amount: 1100, currency: 'EUR', customerId: customer.body.id },
          });
          expect(next.body.status).to.equal('successful');
          expect(await peer.expiryPaidWith(next.body.id)).to.deep.equal({ month: 3, year: newYear });
          const atPeer = await expectSameOnBothSides(live);
          expect(atPeer.get(next.body.id)!.customer).to.equal(atPeer.get(first.body.id)!.customer);
        } finally {
          await proxy.close();
        }
      });

      it('renews a subscription in the worker with the kept card', async () => {
        const { live } = await liveAccount(`Renewals ${kind}`);
        const plan = await createPlan(live, { amount: 1500, interval: 'hour', name: 'Hourly' });
        const customer = await live.post<Customer>('/customers', {
          json: { email: 'subscriber@example.com', card: cardDetails('4242424242424242') },
        });
        expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
        const subscription = await subscribe(live, customer.body.id, { planId: plan.id });
        expect(subscription.status).to.equal('active');
        const [first] = await chargesOf(live, customer.body.id, subscription.id);
        expect(first).to.include({ status: 'successful', amount: 1500 });

        // An hour passes for the service (in this process), not for the processor.
        const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'], shouldAdvanceTime: true });
        try {
          clock.setSystemTime(subscription.currentPeriodEnd * 1000 + 1000);
          const renewed = await waitUntil(
            async () => {
              const charges = await chargesOf(live, customer.body.id, subscription.id);
              return charges.length === 2 && charges[1]!.status !== 'pending' ? charges : null;
            },
            'the renewal',
            30_000,
          );
          expect(renewed[1]).to.include({ status: 'successful', amount: 1500, type: 'subsequent_recurring' });
          const after = (await live.get<Subscription>(`/subscriptions/${subscription.id}`)).body;
          expect(after.status).to.equal('active');
          expect(after.currentPeriodStart).to.equal(subscription.currentPeriodEnd);
        } finally {
          clock.restore();
        }
        const atPeer = await expectSameOnBothSides(live);
        expect(atPeer.size).to.equal(2);
      });

      it('takes a checkout payment with a token from the payer’s browser', async () => {
        const { keys, live } = await liveAccount(`Checkout ${kind}`);
        const token = await live.post<{ id: string }>('/tokens', {
          json: cardDetails('4242424242424242'),
          key: keys.livePublicKey,
        });
        expect(token.status, JSON.stringify(token.body)).to.equal(200);
        const request = signCheckoutRequest({ charge: { amount: 2500, currency: 'EUR' } }, keys.liveSecretKey);
        const paid = await live.post<{ charge: Charge; customer: Customer } & ApiError>('/checkout/pay', {
          json: { checkoutRequest: request, email: 'buyer@example.com', token: token.body.id },
          key: keys.livePublicKey,
        });
        expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
        expect(paid.body.charge).to.include({ status: 'successful', amount: 2500 });
        const atPeer = await expectSameOnBothSides(live);
        expect([...atPeer.keys()]).to.deep.equal([paid.body.charge.id]);
      });

      if (kind === 'shift4') {
        /** The customers at the peer: one per card it keeps. */
        const peerCustomers = async () => {
          const peerApi = new ApiClient(peer.url, peer.secretKey);
          let count = 0;
          let startingAfterId: string | undefined;
          for (;;) {
            const page = (
              await peerApi.get<Page<Customer>>('/customers', {
                query: { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
              })
            ).body;
            count += page.list.length;
            if (!page.hasMore) return count;
            startingAfterId = page.list.at(-1)!.id;
          }
        };

        it('takes a checkout subscription: the first charge is made at the processor with the card it kept from the token', async () => {
          const { keys, live } = await liveAccount('Checkout subscription shift4');
          const plan = await createPlan(live, { amount: 1500, interval: 'month', name: 'Monthly' });
          const customersBefore = await peerCustomers();
          const token = await live.post<{ id: string }>('/tokens', {
            json: cardDetails('4242424242424242'),
            key: keys.livePublicKey,
          });
          expect(token.status, JSON.stringify(token.body)).to.equal(200);
          const request = signCheckoutRequest({ subscription: { planId: plan.id } }, keys.liveSecretKey);
          const paid = await live.post<{ charge: Charge; subscription: Subscription; customer: Customer } & ApiError>(
            '/checkout/pay',
            {
              json: { checkoutRequest: request, email: 'subscriber@example.com', token: token.body.id },
              key: keys.livePublicKey,
            },
          );
          expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
          expect(paid.body.subscription).to.include({ status: 'active', planId: plan.id });
          expect(paid.body.charge).to.include({ status: 'successful', amount: 1500, currency: 'EUR' });
          const charges = await chargesOf(live, paid.body.customer.id, paid.body.subscription.id);
          expect(charges.map((charge) => charge.id)).to.deep.equal([paid.body.charge.id]);

          // At the processor: that one charge, of the card it kept when the token came in, and no other card kept.
          const atPeer = await expectSameOnBothSides(live);
          expect([...atPeer.keys()]).to.deep.equal([paid.body.charge.id]);
          expect(atPeer.get(paid.body.charge.id)!.customer).to.be.a('string');
          expect((await peer.payments()).get(paid.body.charge.id)).to.have.length(1);
          expect(await peerCustomers()).to.equal(customersBefore + 1);
        });

        it('pays a checkout with a remembered card, once, as the card the processor kept', async () => {
          const { keys, live } = await liveAccount('Checkout remembered card shift4');
          const customersBefore = await peerCustomers();
          const email = 'remembered@example.com';
          const request = signCheckoutRequest(
            { charge: { amount: 800, currency: 'EUR' }, rememberMe: true },
            keys.liveSecretKey,
          );
          const call = <T>(path: string, json: Record<string, unknown>) =>
            live.post<T & ApiError>(`/checkout/${path}`, {
              json: { checkoutRequest: request, ...json },
              key: keys.livePublicKey,
            });
          const token = await live.post<{ id: string }>('/tokens', {
            json: cardDetails('5555555555554444'),
            key: keys.livePublicKey,
          });
          const first = await call<{ charge: Charge; customer: Customer }>('pay', {
            email,
            token: token.body.id,
            rememberMe: true,
          });
          expect(first.status, JSON.stringify(first.body)).to.equal(200);
          expect(first.body.charge.status).to.equal('successful');

          // Live mode tells the page nothing; the code reaches the payer by mail.
          const asked = await call<{ sent: boolean; testCode?: string }>('remembered-cards/code', { email });
          expect(asked.body).to.deep.equal({ sent: true });
          const code = await codeMailedTo(service.dataDir, { accountId: keys.id, mode: 'live' }, email);
          const confirmed = await call<{ rememberedCard: string; card: { last4: string } }>(
            'remembered-cards/confirm',
            {
              email,
              code,
            },
          );
          expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
          expect(confirmed.body.card.last4).to.equal('4444');
          const second = await call<{ charge: Charge; customer: Customer }>('pay', {
            email,
            rememberedCard: confirmed.body.rememberedCard,
          });
          expect(second.status, JSON.stringify(second.body)).to.equal(200);
          expect(second.body.charge).to.include({ status: 'successful', amount: 800 });
          expect(second.body.customer.id).to.equal(first.body.customer.id);
          expect(second.body.charge.card!.id).to.equal(first.body.charge.card!.id);
          const again = await call('pay', { email, rememberedCard: confirmed.body.rememberedCard });
          expect(again.status).to.equal(400);

          // Both payments at the processor, once each, of the one card it kept.
          const atPeer = await expectSameOnBothSides(live);
          expect([...atPeer.keys()]).to.have.members([first.body.charge.id, second.body.charge.id]);
          const keptBy = atPeer.get(first.body.charge.id)!.customer;
          expect(keptBy).to.be.a('string');
          expect(atPeer.get(second.body.charge.id)!.customer).to.equal(keptBy);
          expect(await peerCustomers()).to.equal(customersBefore + 1);
        });
      }

      if (kind !== 'stripe') return;

      it('charges, captures, refunds in part and in full; declines keep the processor code; a credit, which Stripe does not take, is sent nowhere', async () => {
        const { live } = await liveAccount('Stripe payments');
        const authorized = await live.post<Charge & ApiError>('/charges', {
          json: { amount: 3000, currency: 'EUR', card: cardDetails('4242424242424242'), captured: false },
        });
        expect(authorized.status, JSON.stringify(authorized.body)).to.equal(200);
        expect(authorized.body).to.include({ status: 'successful', captured: false });
        // The card as Stripe's answer describes it (localstripe: a French Visa credit card).
        expect(authorized.body.card).to.include({ brand: 'Visa', type: 'Credit Card', country: 'FR' });
        expect((await expectSameOnBothSides(live)).get(authorized.body.id)!.status).to.equal('authorized');
        expect((await live.post(`/charges/${authorized.body.id}/capture`)).status).to.equal(200);
        expect((await live.post('/refunds', { json: { chargeId: authorized.body.id, amount: 1000 } })).status).to.equal(
          200,
        );
        expect((await expectSameOnBothSides(live)).get(authorized.body.id)!.amountRefunded).to.equal(1000);
        expect((await live.post('/refunds', { json: { chargeId: authorized.body.id } })).status).to.equal(200);
        expect((await expectSameOnBothSides(live)).get(authorized.body.id)!.amountRefunded).to.equal(3000);

        const declined = await live.post<ApiError>('/charges', {
          json: { amount: 700, currency: 'EUR', card: cardDetails('4000000000000341') },
        });
        expect(declined.status, JSON.stringify(declined.body)).to.equal(402);
        expect(declined.body.error).to.include({ type: 'card_error', code: 'card_declined' });
        const failed = (await live.get<Charge>(`/charges/${declined.body.error.chargeId}`)).body;
        expect(failed).to.include({ status: 'failed', failureCode: 'card_declined' });
        expect(failed.failureIssuerDeclineCode, 'Stripe’s own code').to.equal('card_declined');
        await expectSameOnBothSides(live);

        // Stripe takes no card credits: with no other processor nothing is sent anywhere.
        const credit = await live.post<ApiError>('/credits', {
          json: { amount: 500, currency: 'EUR', card: cardDetails('4242424242424242') },
        });
        expect(credit.status).to.equal(502);
        expect(credit.body.error.type).to.equal('gateway_error');
        expect((await live.get<Page<unknown>>('/credits')).body.list).to.deep.equal([]);
      });

      it('fails over to the next processor when Stripe refuses connections; without one, 502 and nothing recorded at either side', async () => {
        const refusing = await closedPort();
        const { live } = await liveAccount(
          'Stripe failover',
          { kind: 'stripe', url: refusing },
          { kind, url: peer.url },
        );
        const failedOver = await live.post<Charge>('/charges', {
          json: { amount: 1100, currency: 'EUR', card: cardDetails('4242424242424242') },
        });
        expect(failedOver.status, JSON.stringify(failedOver.body)).to.equal(200);
        expect(failedOver.body.status).to.equal('successful');
        expect((await expectSameOnBothSides(live)).size).to.equal(1);

        const { live: alone } = await liveAccount('Stripe alone', { kind: 'stripe', url: refusing });
        const before = (await peer.payments()).size;
        const refused = await alone.post<ApiError>('/charges', {
          json: { amount: 1100, currency: 'EUR', card: cardDetails('4242424242424242') },
        });
        expect(refused.status).to.equal(502);
        expect(refused.body.error.message).to.match(/No processor could be reached; nothing was charged/);
        expect((await alone.get<Page<Charge>>('/charges')).body.list).to.deep.equal([]);
        expect((await peer.payments()).size).to.equal(before);
      });

      it('leaves a charge pending when Stripe answers 500 or hangs, then settles it by lookup to Stripe’s outcome', async () => {
        // 500 or no answer after Stripe took the payment: successful; the request lost before it: failed.
        for (const [mode, outcome] of [
          ['fail', 'successful'],
          ['hang-after', 'successful'],
          ['hang-before', 'failed'],
        ] as const) {
          const proxy = await faultyProxy(() => peer.url, 'pass');
          try {
            const { live } = await liveAccount(`Stripe ${mode}`, { kind: 'stripe', url: proxy.url });
            const customer = await live.post<Customer>('/customers', {
              json: { email: 'kept@example.com', card: cardDetails('4242424242424242') },
            });
            expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
            // The payment itself fails: the kept card needs no other call first.
            proxy.mode = mode;
            const pending = await live.post<Charge>('/charges', {
              json: { amount: 1300, currency: 'EUR', customerId: customer.body.id },
            });
            expect(pending.status, JSON.stringify(pending.body)).to.equal(200);
            expect(pending.body).to.include({ status: 'pending', captured: false });
            proxy.mode = 'pass';
            const done = await waitUntil(async () => {
              const charge = (await live.get<Charge>(`/charges/${pending.body.id}`)).body;
              return charge.status === 'pending' ? null : charge;
            }, `${pending.body.id} settled`);
            const atPeer = await expectSameOnBothSides(live);
            if (outcome === 'successful') {
              expect(done).to.include({ status: 'successful', captured: true });
              expect([...atPeer.keys()], mode).to.deep.equal([pending.body.id]);
              expect(proxy.forwarded.filter((request) => request === 'POST /v1/payment_intents')).to.have.length(1);
            } else {
              expect(done).to.include({ status: 'failed', failureCode: 'processing_error' });
              expect([...atPeer.keys()], mode).to.deep.equal([]);
              expect(proxy.requests.filter((request) => request === 'POST /v1/payment_intents')).to.have.length(1);
            }
          } finally {
            await proxy.close();
          }
        }
      });
    });
  }
});
