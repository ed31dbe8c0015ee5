import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import type { FaultPoint } from '../../packages/config/fault-injection.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { useCrashingService, type CrashingService } from '../support/crashing-service.ts';
import { RETURN_URL } from '../support/payment-methods.ts';
import { cardDetails, type Charge } from '../support/payments.ts';
import { advance, createClock, createPlan, DAY, VISA, type Subscription } from '../support/subscriptions.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

/** What one run of a request needs and names: its Idempotency-Key, the objects made for it beforehand. */
type Run = Record<string, string>;

/** A request that writes to more than one stream, and every crash point a run of it passes. */
interface Workflow {
  name: string;
  points: FaultPoint[];
  /** Made once, before any run (a plan, an offer). */
  setup(api: ApiClient): Promise<void>;
  /** What one run needs for itself (its key, a customer, a paid checkout), made on the running service. */
  prepare(api: ApiClient, label: string): Promise<Run>;
  send(api: ApiClient, run: Run): Promise<ApiResponse>;
  /** The objects the run made, by kind, as the log holds them. */
  made(run: Run): Promise<Record<string, string[]>>;
  /** Whether the request takes an Idempotency-Key, so that a repeat replays the stored answer. */
  replays: boolean;
  /** What the answer without a crash must say, besides 200 (each retry must then say the same). */
  expectAnswer?(answer: ApiResponse): void;
}

/** Fields whose values are the time of the run (or a checkout session's secret), which differ between two runs of one request. */
const RUN_FIELDS = new Set([
  'created',
  'start',
  'currentPeriodStart',
  'currentPeriodEnd',
  'expiresAt',
  'updated',
  'session',
]);

/** An answer with the ids and times of its run left out: two runs of one request answer alike. */
function comparable(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (field, value: unknown) => {
    if (RUN_FIELDS.has(field) && value !== null) return '<run>';
    if (typeof value !== 'string') return value;
    return value
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<service>')
      .replace(/\b([a-z]+(?:_[a-z]+)*)_[0-9A-Za-z]{24}\b/g, '$1_<id>');
  });
}

const counts = (made: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(made).map(([kind, ids]) => [kind, ids.length]));

/**
 * One lane of the sweep: the request kinds on a service of their own (its own data directory), with
 * the helpers that make and read their objects there.
 */
function sweepLane(service: CrashingService) {
  /** The log, read beside the running service. */
  function readLog<T>(read: (events: Database.Database) => T): T {
    const events = new Database(join(service.dataDir, 'events.sqlite'), { readonly: true });
    try {
      return read(events);
    } finally {
      events.close();
    }
  }

  /** Objects whose streams a request with this Idempotency-Key began, by kind, and the cards it saved. */
  async function madeWithKey(key: string): Promise<Record<string, string[]>> {
    const rows = readLog((events) =>
      events
        .prepare<[string], { stream_id: string; revision: number; type: string; data: string }>(
          `SELECT stream_id, revision, type, data FROM events WHERE json_extract(metadata, '$.idempotencyKey') = ?`,
        )
        .all(key),
    );
    const made: Record<string, Set<string>> = {};
    const add = (kind: string, id: string) => (made[kind] ??= new Set()).add(id);
    for (const row of rows) {
      if (row.revision === 0)
        add(row.stream_id.slice(0, row.stream_id.indexOf('-')), row.stream_id.slice(row.stream_id.indexOf('-') + 1));
      if (row.type === 'CardAdded') add('card', (JSON.parse(row.data) as { cardId: string }).cardId);
    }
    // A subscription's charges are made under ids it recorded, also by a worker (whose events carry no key).
    for (const subscriptionId of made.subscription ?? []) {
      const charges = readLog((events) =>
        events
          .prepare<[string], string>(
            `SELECT substr(stream_id, length('charge-') + 1) FROM events
             WHERE stream_id LIKE 'charge-%' AND revision = 0 AND json_extract(data, '$.subscriptionId') = ?`,
          )
          .pluck()
          .all(subscriptionId),
      );
      for (const chargeId of charges) {
        add('charge', chargeId);
        if ((await service.stream(`chargeAuthorization-${chargeId}`)).length > 0) add('chargeAuthorization', chargeId);
      }
    }
    return Object.fromEntries(Object.entries(made).map(([kind, ids]) => [kind, [...ids].sort()]));
  }

  const sign = (request: object) => signCheckoutRequest(request, service.keys.testSecretKey);
  let planId = '';
  let offerId = '';
  const offerCheckout = () => ({ charge: { amount: 5000, currency: 'EUR' }, crossSaleOfferIds: [offerId] });
  let subscriptionOfferId = '';
  const subscriptionOfferCheckout = () => ({
    charge: { amount: 5000, currency: 'EUR' },
    crossSaleOfferIds: [subscriptionOfferId],
  });

  async function customer(client: ApiClient): Promise<string> {
    const created = await client.post<{ id: string }>('/customers', { json: { email: 'payer@example.com' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    return created.body.id;
  }

  async function token(client: ApiClient, number = VISA): Promise<string> {
    const made = await client.post<{ id: string }>('/tokens', {
      json: cardDetails(number),
      key: service.keys.testPublicKey,
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    return made.body.id;
  }

  /** A token of the challenge card whose payer completed the issuer's challenge for the plan's amount (1000 EUR). */
  async function challengedToken(client: ApiClient): Promise<string> {
    const challenged = await token(client, '4000000000003220');
    const verified = await client.post(`/tokens/${challenged}/three-d-secure`, {
      json: { amount: 1000, currency: 'EUR' },
      key: service.keys.testPublicKey,
    });
    expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
    const answered = await client.post('/three-d-secure/challenge', {
      key: null,
      json: { token: challenged, key: service.keys.testPublicKey, outcome: 'complete', code: '123456' },
    });
    expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
    return challenged;
  }

  const workflows: Workflow[] = [
    {
      name: 'a subscription with new card details',
      points: [
        'customer.after-append',
        'subscription.after-append',
        'charge.before-network-call',
        'charge.after-network-call',
        'charge.after-append',
        'request.after-projection',
      ],
      async setup(client) {
        planId = (await createPlan(client)).id;
      },
      prepare: async (client, label) => ({ key: `subscribe-${label}`, customerId: await customer(client) }),
      send: (client, run) =>
        client.post(`/customers/${run.customerId}/subscriptions`, {
          json: { planId, card: cardDetails(VISA) },
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a charge with new card details for a customer, whose card it saves',
      points: [
        'charge.before-network-call',
        'charge.after-network-call',
        'charge.after-append',
        'request.after-projection',
      ],
      async setup() {},
      prepare: async (client, label) => ({ key: `charge-${label}`, customerId: await customer(client) }),
      send: (client, run) =>
        client.post('/charges', {
          json: { amount: 1250, currency: 'EUR', customerId: run.customerId, card: cardDetails(VISA) },
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a customer with a card from a token',
      points: ['customer.after-append', 'request.after-projection'],
      async setup() {},
      prepare: async (client, label) => ({ key: `customer-${label}`, token: await token(client) }),
      send: (client, run) =>
        client.post('/customers', {
          json: { email: 'saver@example.com', card: run.token },
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a payment-method charge with a new payment method',
      points: ['payment-method.after-append', 'request.after-projection'],
      async setup() {},
      prepare: async (client, label) => ({ key: `method-charge-${label}`, customerId: await customer(client) }),
      send: (client, run) =>
        client.post('/charges', {
          json: {
            amount: 1250,
            currency: 'EUR',
            customerId: run.customerId,
            paymentMethod: { type: 'ideal', billing: { email: 'payer@example.com' } },
            flow: { returnUrl: RETURN_URL },
          },
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a checkout payment by a new customer',
      points: [
        'charge.before-network-call',
        'charge.after-network-call',
        'charge.after-append',
        'customer.after-append',
        'request.after-projection',
      ],
      async setup() {},
      prepare: async (client, label) => ({
        key: `checkout-${label}`,
        checkoutRequest: sign({ charge: { amount: 2500, currency: 'EUR' } }),
        token: await token(client),
      }),
      send: (client, run) =>
        client.post('/checkout/pay', {
          json: { checkoutRequest: run.checkoutRequest, email: 'buyer@example.com', token: run.token },
          key: service.keys.testPublicKey,
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a checkout subscription by a new customer',
      points: [
        'customer.after-append',
        'subscription.after-append',
        'charge.before-network-call',
        'charge.after-network-call',
        'charge.after-append',
        'request.after-projection',
      ],
      async setup() {},
      prepare: async (client, label) => ({
        key: `checkout-subscription-${label}`,
        checkoutRequest: sign({ subscription: { planId } }),
        token: await token(client),
      }),
      send: (client, run) =>
        client.post('/checkout/pay', {
          json: { checkoutRequest: run.checkoutRequest, email: 'subscriber@example.com', token: run.token },
          key: service.keys.testPublicKey,
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
    },
    {
      name: 'a checkout subscription paid after a completed 3-D Secure challenge',
      points: ['subscription.after-append', 'charge.before-network-call', 'charge.after-network-call'],
      async setup() {},
      prepare: async (client, label) => ({
        key: `checkout-authenticated-subscription-${label}`,
        checkoutRequest: sign({ subscription: { planId }, threeDSecure: { enable: true } }),
        token: await challengedToken(client),
      }),
      send: (client, run) =>
        client.post('/checkout/pay', {
          json: { checkoutRequest: run.checkoutRequest, email: 'authenticated@example.com', token: run.token },
          key: service.keys.testPublicKey,
          headers: { 'idempotency-key': run.key! },
        }),
      made: (run) => madeWithKey(run.key!),
      replays: true,
      expectAnswer: (answer) =>
        expect((answer.body as { subscription: Subscription }).subscription).to.include({ status: 'active' }),
    },
    {
      name: 'a cross-sale offer bought in a checkout',
      points: ['charge.before-network-call', 'charge.after-network-call', 'charge.after-append'],
      async setup(client) {
        const offer = await client.post<{ id: string }>('/cross-sale-offers', {
          json: { charge: { amount: 990, currency: 'EUR' }, template: 'text_only', title: 'Travel insurance' },
        });
        expect(offer.status, JSON.stringify(offer.body)).to.equal(200);
        offerId = offer.body.id;
      },
      async prepare(client) {
        const paid = await client.post<{ charge: Charge; session: string }>('/checkout/pay', {
          json: { checkoutRequest: sign(offerCheckout()), email: 'buyer@example.com', token: await token(client) },
          key: service.keys.testPublicKey,
        });
        expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
        return { session: paid.body.session, mainChargeId: paid.body.charge.id };
      },
      send: (client, run) =>
        client.post('/checkout/cross-sale-purchases', {
          json: { checkoutRequest: sign(offerCheckout()), session: run.session, offerId },
          key: service.keys.testPublicKey,
        }),
      made: async (run) =>
        readLog((events) => {
          const charges = events
            .prepare<[string], string>(
              `SELECT DISTINCT json_extract(data, '$.chargeId') FROM events
               WHERE type IN ('ChargeSucceeded', 'ChargeFailed') AND json_extract(data, '$.crossSale.merchantChargeId') = ?`,
            )
            .pluck()
            .all(run.mainChargeId!);
          const authorizations = events
            .prepare<[], string>(`SELECT stream_id FROM events WHERE stream_id LIKE 'chargeAuthorization-%'`)
            .pluck()
            .all()
            .filter((stream) => charges.includes(stream.slice('chargeAuthorization-'.length)));
          const listed = events
            .prepare<[string], string>(
              `SELECT json_extract(data, '$.crossSaleCharge.chargeId') FROM events
               WHERE stream_id = ? AND type = 'CrossSaleChargeAdded'`,
            )
            .pluck()
            .all(`charge-${run.mainChargeId}`);
          return { charge: charges, chargeAuthorization: authorizations, listedOnMainCharge: listed };
        }),
      replays: false,
    },
    {
      name: 'a subscription offer bought in a checkout',
      points: ['subscription.after-append', 'charge.after-network-call', 'charge.after-append'],
      async setup(client) {
        const plan = await client.post<{ id: string }>('/plans', {
          json: { amount: 1200, currency: 'EUR', interval: 'month', name: 'Offered monthly' },
        });
        expect(plan.status, JSON.stringify(plan.body)).to.equal(200);
        const offer = await client.post<{ id: string }>('/cross-sale-offers', {
          json: { subscription: { planId: plan.body.id }, template: 'text_only', title: 'Premium support' },
        });
        expect(offer.status, JSON.stringify(offer.body)).to.equal(200);
        subscriptionOfferId = offer.body.id;
      },
      async prepare(client) {
        const paid = await client.post<{ customer: { id: string }; session: string }>('/checkout/pay', {
          json: {
            checkoutRequest: sign(subscriptionOfferCheckout()),
            email: 'subscriber@example.com',
            token: await token(client),
          },
          key: service.keys.testPublicKey,
        });
        expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
        return { session: paid.body.session, customerId: paid.body.customer.id };
      },
      send: (client, run) =>
        client.post('/checkout/cross-sale-purchases', {
          json: {
            checkoutRequest: sign(subscriptionOfferCheckout()),
            session: run.session,
            offerId: subscriptionOfferId,
          },
          key: service.keys.testPublicKey,
        }),
      made: async (run) => {
        const subscriptions = readLog((events) =>
          events
            .prepare<[string], string>(
              `SELECT json_extract(data, '$.subscriptionId') FROM events
               WHERE type = 'SubscriptionCreated' AND json_extract(data, '$.customerId') = ?`,
            )
            .pluck()
            .all(run.customerId!),
        );
        const charges = readLog((events) =>
          events
            .prepare<[], { stream_id: string; subscription: string | null }>(
              `SELECT stream_id, json_extract(data, '$.subscriptionId') AS subscription FROM events
               WHERE stream_id LIKE 'charge-%' AND revision = 0`,
            )
            .all()
            .filter((row) => row.subscription !== null && subscriptions.includes(row.subscription))
            .map((row) => row.stream_id.slice('charge-'.length)),
        );
        const authorizations = [];
        for (const chargeId of charges)
          if ((await service.stream(`chargeAuthorization-${chargeId}`)).length > 0) authorizations.push(chargeId);
        return { subscription: subscriptions, charge: charges, chargeAuthorization: authorizations };
      },
      replays: false,
      expectAnswer: (answer) =>
        expect((answer.body as { subscription: Subscription }).subscription).to.include({ status: 'active' }),
    },
  ];

  return {
    service,
    workflows,
    readLog,
    madeWithKey,
    customer,
    token,
    challengedToken,
    sign,
    /** The plan the first request kind made in setup. */
    planId: () => planId,
  };
}

/**
 * Every request kind that writes to more than one stream (a subscription with a new card, a charge
 * that saves its new card to the customer, a customer with a card, a payment-method charge with a
 * new payment method, a checkout payment or subscription that makes its customer, a cross-sale
 * offer bought in a checkout, a subscription offer bought in a checkout), killed (SIGKILL, the FAULT_INJECTION test hook) at each crash point a run
 * of it passes, then retried after a restart as a merchant's client (or the checkout page) would:
 * the retry completes, answers what a run without a crash answers (with the ids the killed run
 * made), and every object exists once: one subscription, one charge, one card, no second
 * authorization. The cases are dealt to two lanes, each a service with a data directory of its
 * own, that run side by side (one lane's start-ups and kills overlap the other's requests): in a
 * lane the cases crash one after the other (one armed start of the built service each), and are
 * retried against one restarted service. The scale sets how many runs of each case are killed and
 * retried; the figures (runs killed, retries completed, objects doubled or missing, answers that
 * differ) are printed at the end.
 */
describe(`multi-stream requests across a crash of the service at each point (${scale.crashRunsPerCase} run(s) per case)`, function () {
  this.timeout(suiteTimeoutMs);
  // The cases start the service once each, from the build of the test run (build-service.ts).
  const lanes = [sweepLane(useCrashingService()), sweepLane(useCrashingService())];
  // The tests after the sweep run on the first lane's service.
  const { service, madeWithKey, customer, token, challengedToken, sign, readLog, planId } = lanes[0]!;
  const { api } = service;

  /** Every request kind at each of its points, dealt to the lanes in turn. */
  const cases = lanes[0]!.workflows
    .flatMap((workflow, kind) => workflow.points.map((point) => ({ kind, point })))
    .map(({ kind, point }, index) => {
      const lane = lanes[index % lanes.length]!;
      return { lane, workflow: lane.workflows[kind]!, point, runs: [] as Run[] };
    });
  const references = new Map<Workflow, { answer: ApiResponse; made: Record<string, string[]> }>();
  /** What the retries showed, over every case. */
  const figures = { killed: 0, retried: 0, completed: 0, differingAnswers: 0, doubled: 0, missing: 0, replayed: 0 };

  before('answers without a crash, then each run of each case killed at its point', async function () {
    // One start of the service for each killed run.
    this.timeout(3 * suiteTimeoutMs);
    const swept = await Promise.allSettled(
      lanes.map(async (lane) => {
        const { api } = lane.service;
        for (const workflow of lane.workflows) {
          await workflow.setup(api);
          const run = await workflow.prepare(api, 'reference');
          const answer = await workflow.send(api, run);
          expect(answer.status, `${workflow.name}: ${JSON.stringify(answer.body)}`).to.equal(200);
          workflow.expectAnswer?.(answer);
          references.set(workflow, { answer, made: await workflow.made(run) });
        }
        const own = cases.filter((each) => each.lane === lane);
        for (const each of own)
          for (let i = 0; i < scale.crashRunsPerCase; i++)
            each.runs.push(await each.workflow.prepare(api, `${each.point}-${i}`));
        for (const { workflow, point, runs } of own)
          for (const run of runs) {
            await lane.service.crashAt(point, (doomed) => workflow.send(doomed, run));
            figures.killed++;
          }
        await lane.service.start();
      }),
    );
    // Both lanes are done (no start left running) before a failure of either is reported.
    for (const lane of swept) if (lane.status === 'rejected') throw lane.reason;
  });

  after('print the figures', () => {
    console.log(
      `      crash sweep [${scale.name}]: ${lanes[0]!.workflows.length} request kinds, ${cases.length} cases (a kind killed at a point), ` +
        `${figures.killed} runs killed, ${figures.retried} retried, ${figures.completed} completed with the answer of a run ` +
        `without a crash, ${figures.differingAnswers} answered otherwise, objects doubled ${figures.doubled}, ` +
        `missing ${figures.missing}, repeats replayed ${figures.replayed}`,
    );
  });

  for (const each of cases) {
    it(`${each.workflow.name}, killed at ${each.point}, completes once on retry with the answer of a run without a crash`, async () => {
      const { lane, workflow, runs } = each;
      const reference = references.get(workflow)!;
      for (const run of runs) {
        const retry = await workflow.send(lane.service.api, run);
        figures.retried++;
        const made = await workflow.made(run);
        const sameAnswer =
          retry.status === reference.answer.status &&
          JSON.stringify(comparable(retry.body)) === JSON.stringify(comparable(reference.answer.body));
        if (sameAnswer) figures.completed++;
        else figures.differingAnswers++;
        for (const [kind, ids] of Object.entries(reference.made)) {
          const found = made[kind]?.length ?? 0;
          if (found > ids.length) figures.doubled += found - ids.length;
          if (found < ids.length) figures.missing += ids.length - found;
        }
        expect(retry.status, JSON.stringify(retry.body)).to.equal(reference.answer.status);
        expect(comparable(retry.body)).to.deep.equal(comparable(reference.answer.body));
        expect(counts(made), 'one of each object, as without a crash').to.deep.equal(counts(reference.made));
        for (const ids of Object.values(made)) expect(ids).to.have.length(1);
        // The answer names the objects the killed run made, wherever an answer without a crash names its own.
        for (const [kind, [referenceId]] of Object.entries(reference.made))
          if (JSON.stringify(reference.answer.body).includes(referenceId!))
            expect(JSON.stringify(retry.body), kind).to.include(made[kind]![0]!);

        if (workflow.replays) {
          const again = await workflow.send(lane.service.api, run);
          expect(again.headers.get('idempotent-replayed')).to.equal('true');
          expect(again.body).to.deep.equal(retry.body);
          figures.replayed++;
        }
      }
    });
  }

  it('a subscription with a card killed once the card was saved is made on retry as then, though its trialEnd has passed since', async () => {
    const start = Math.floor(Date.now() / 1000);
    const clock = await createClock(api, start);
    const subscriber = await api.post<{ id: string }>('/customers', {
      json: { email: 'trial@example.com', testClockId: clock.id },
    });
    const trialEnd = start + DAY;
    const send = (client: ApiClient) =>
      client.post<Subscription>(`/customers/${subscriber.body.id}/subscriptions`, {
        json: { planId: planId(), card: cardDetails(VISA), trialEnd },
        headers: { 'idempotency-key': 'subscribe-trial-then-crash' },
      });
    await service.crashAt('customer.after-append', send);
    const client = await service.start();
    // The customer's clock moves past the trial's end before the client retries.
    await advance(client, clock.id, start + 2 * DAY);
    const retry = await send(client);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body).to.include({ status: 'trialing', start, trialEnd, currentPeriodEnd: trialEnd });
    expect(counts(await madeWithKey('subscribe-trial-then-crash'))).to.deep.equal({ card: 1, subscription: 1 });
  });

  it("a checkout subscription after a 3-D Secure challenge, killed before its first charge, which the worker makes before the payer's retry, is charged with the challenge's verification", async () => {
    const start = Math.floor(Date.now() / 1000);
    const clock = await createClock(api, start);
    const subscriber = await api.post<{ id: string }>('/customers', {
      json: { email: 'clocked@example.com', testClockId: clock.id },
    });
    expect(subscriber.status, JSON.stringify(subscriber.body)).to.equal(200);
    const run = {
      checkoutRequest: sign({
        customerId: subscriber.body.id,
        subscription: { planId: planId() },
        threeDSecure: { enable: true },
      }),
      token: await challengedToken(api),
    };
    const key = 'checkout-authenticated-subscription-finished-by-the-worker';
    const send = (client: ApiClient) =>
      client.post<{ subscription: Subscription; charge: Charge }>('/checkout/pay', {
        json: run,
        key: service.keys.testPublicKey,
        headers: { 'idempotency-key': key },
      });
    await service.crashAt('subscription.after-append', send);
    const client = await service.start();
    // The subscription's customer lives on the clock: advancing it runs the started payment as a
    // worker runs it on real time (a minute after it started), before the payer's page retries.
    await advance(client, clock.id, start + 3600);
    const retry = await send(client);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.subscription).to.include({ status: 'active' });
    expect(retry.body.charge).to.include({ status: 'successful', subscriptionId: retry.body.subscription.id });
    expect(retry.body.charge.threeDSecureInfo).to.include({ enrolled: true, liabilityShift: 'successful' });
    expect(counts(await madeWithKey(key))).to.deep.equal({
      card: 1,
      subscription: 1,
      charge: 1,
      chargeAuthorization: 1,
    });
  });

  it('a subscription refused for its trialEnd records nothing: no card, no event, no vault entry, no used token', async () => {
    const customerId = await customer(api);
    const vaultEntries = () => readLog((events) => events.prepare('SELECT count(*) FROM vault_entries').pluck().get());
    const stream = () => service.stream(`customer-${customerId}`);
    const [entriesBefore, eventsBefore] = [vaultEntries(), await stream()];
    const refused = await api.post<{ error: { message: string } }>(`/customers/${customerId}/subscriptions`, {
      json: { planId: planId(), card: cardDetails(VISA), trialEnd: 1000 },
      headers: { 'idempotency-key': 'subscribe-in-the-past' },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.message).to.equal(
      'Invalid parameter: trialEnd must be in the future, or -1 for no trial',
    );
    // A vault entry with no append after it commits on its own within 200 ms.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(vaultEntries()).to.equal(entriesBefore);
    expect(await stream()).to.deep.equal(eventsBefore);
    expect(await madeWithKey('subscribe-in-the-past')).to.deep.equal({});
    // Refused with a token: the token is not used up.
    const tokenId = await token(api);
    const refusedToken = await api.post(`/customers/${customerId}/subscriptions`, {
      json: { planId: planId(), card: tokenId, trialEnd: 1000 },
    });
    expect(refusedToken.status).to.equal(400);
    expect((await api.get<{ used: boolean }>(`/tokens/${tokenId}`)).body.used).to.equal(false);
    expect(await stream()).to.deep.equal(eventsBefore);
  });
});
