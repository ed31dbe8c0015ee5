import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { cardDetails, createOtherAccount, type Customer } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { suiteTimeoutMs } from './scale.ts';

type Operation = { method: 'get' | 'post' | 'delete'; path: string };
type Body = Record<string, unknown>;

/**
 * Every route of the API, for every key that does not own an object (another account's secret
 * and public keys, the owner's other mode, the owner's public key): none may read, list, change,
 * capture, refund, close, advance or delete it, and afterwards the owner sees every object as it
 * was. The routes come from the OpenAPI document, so a new route joins the matrix by itself.
 */
describe('tenant isolation matrix: every resource, every key kind', function () {
  this.timeout(suiteTimeoutMs);
  const {
    api: owner,
    service,
    keys,
  } = useService({
    env: {
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      NETWORK_DISPUTE_DELAY_MS: '100',
      NETWORK_FRAUD_WARNING_DELAY_MS: '100',
    },
  });
  const owned = new Map<string, string>();
  let operations: Operation[] = [];

  const ok = async <T = Body>(response: Promise<{ status: number; body: T }>): Promise<T> => {
    const answer = await response;
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body;
  };

  before('one object of every resource, owned by the default account in test mode', async () => {
    const credits = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(credits.code, credits.stderr).to.equal(0);

    const customer = await ok(
      owner.post<Customer>('/customers', {
        json: { email: 'owner@example.com', card: cardDetails('4242424242424242') },
      }),
    );
    owned.set('customerId', customer.id).set('cardId', customer.defaultCardId!);
    const authorized = await ok(
      owner.post<{ id: string }>('/charges', {
        json: { amount: 900, currency: 'EUR', customerId: customer.id, captured: false },
      }),
    );
    owned.set('chargeId', authorized.id);
    const captured = await ok(
      owner.post<{ id: string }>('/charges', { json: { amount: 800, currency: 'EUR', customerId: customer.id } }),
    );
    const refund = await ok(
      owner.post<{ refunds: { id: string }[] }>(`/charges/${captured.id}/refund`, { json: { amount: 100 } }),
    );
    owned.set('refundId', refund.refunds[0]!.id);
    const disputed = await ok(
      owner.post<{ id: string }>('/charges', {
        json: { amount: 700, currency: 'EUR', card: cardDetails('4242000000000018') },
      }),
    );
    const withDispute = await eventually(
      async () => (await owner.get<{ dispute?: { id: string } }>(`/charges/${disputed.id}`)).body,
      (charge) => charge.dispute !== undefined,
    );
    owned.set('disputeId', withDispute.dispute!.id);
    await ok(owner.post('/charges', { json: { amount: 600, currency: 'EUR', card: cardDetails('4242000000000208') } }));
    const warnings = await eventually(
      async () => (await owner.get<{ list: { id: string }[] }>('/fraud-warnings')).body.list,
      (list) => list.length > 0,
    );
    owned.set('fraudWarningId', warnings[0]!.id);
    owned.set(
      'creditId',
      (
        await ok(
          owner.post<{ id: string }>('/credits', {
            json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
          }),
        )
      ).id,
    );
    const plan = await ok(
      owner.post<{ id: string }>('/plans', {
        json: { amount: 1000, currency: 'EUR', interval: 'month', name: 'Owned' },
      }),
    );
    owned.set('planId', plan.id);
    owned.set(
      'subscriptionId',
      (await ok(owner.post<{ id: string }>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } })))
        .id,
    );
    owned.set(
      'testClockId',
      (await ok(owner.post<{ id: string }>('/test-clocks', { json: { frozenTime: 1_800_000_000 } }))).id,
    );
    const token = await ok(
      owner.withKey(keys.testPublicKey).post<{ id: string }>('/tokens', { json: cardDetails('5555555555554444') }),
    );
    owned.set('tokenId', token.id);
    owned.set(
      'crossSaleOfferId',
      (
        await ok(
          owner.post<{ id: string }>('/cross-sale-offers', {
            json: { charge: { amount: 100, currency: 'EUR' }, template: 'text_only', title: 'Owned' },
          }),
        )
      ).id,
    );
    owned.set(
      'ruleId',
      (
        await ok(
          owner.post<{ id: string }>('/blacklist', { json: { ruleType: 'ip_address', ipAddress: '203.0.113.77' } }),
        )
      ).id,
    );
    owned.set(
      'endpointId',
      (await ok(owner.post<{ id: string }>('/webhook-endpoints', { json: { url: 'http://127.0.0.1:9/owned' } }))).id,
    );
    const methodCharge = await ok(
      owner.post<{ clientObjectId: string; paymentMethod: { id: string } }>('/charges', {
        json: {
          amount: 500,
          currency: 'EUR',
          paymentMethod: { type: 'ideal', billing: { name: 'Owner' } },
          flow: { returnUrl: 'https://shop.example/return' },
        },
      }),
    );
    owned.set('clientObjectId', methodCharge.clientObjectId).set('paymentMethodId', methodCharge.paymentMethod.id);
    const upload = new FormData();
    upload.append('purpose', 'dispute_evidence');
    upload.append('file', new Blob([Buffer.from('%PDF-1.4\ntrailer << >>\n%%EOF\n')]), 'owned.pdf');
    const file = await fetch(`${service.baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${keys.testSecretKey}:`).toString('base64')}` },
      body: upload,
    });
    expect(file.status).to.equal(200);
    owned.set('fileId', ((await file.json()) as { id: string }).id);
    // The history of any owned object: a customer's.
    owned.set('objectId', customer.id);
    owned.set('eventId', (await ok(owner.get<{ list: { id: string }[] }>('/events'))).list[0]!.id);

    const openApi = await ok(owner.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json'));
    operations = Object.entries(openApi.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method): method is Operation['method'] => ['get', 'post', 'delete'].includes(method))
        .map((method) => ({ method, path })),
    );
  });

  const fill = (path: string): string =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const id = owned.get(name);
      if (!id) throw new Error(`no owned object for {${name}} in ${path}`);
      return id;
    });

  it('gives strangers nothing: no object, no listing, no change', async () => {
    const other = await createOtherAccount(owner, service.dataDir, 'Stranger');
    const strangers: [string, ApiClient][] = [
      ['other account, secret key', other.api],
      ['other account, public key', other.api.withKey(other.keys.testPublicKey)],
      ['owner, live secret key', owner.withKey(keys.liveSecretKey)],
      ['owner, live public key', owner.withKey(keys.livePublicKey)],
      ['owner, test public key', owner.withKey(keys.testPublicKey)],
    ];
    const readable = operations.filter((operation) => operation.method === 'get' && operation.path.includes('{'));
    const snapshot = async () =>
      Promise.all(readable.map(async (operation) => (await owner.get(fill(operation.path))).body));
    const before = await snapshot();
    const ids = [...owned.values()];
    const leaks: string[] = [];
    let attempts = 0;

    for (const [who, client] of strangers) {
      for (const operation of operations) {
        // A payer's page follows its charge with the same account's public key: that is no stranger.
        if (who === 'owner, test public key' && operation.path.startsWith('/client-objects/')) continue;
        attempts++;
        const targeted = operation.path.includes('{');
        const path = targeted ? fill(operation.path) : operation.path;
        const response = await client.request<Body>(
          operation.method.toUpperCase(),
          path,
          operation.method === 'post' ? { json: {} } : {},
        );
        const text = JSON.stringify(response.body);
        if (targeted) {
          // Refused: unknown (404), wrong key kind (401), or a parameter problem (400) before any lookup.
          const refused = response.status === 404 || response.status === 401 || response.status === 400;
          const shown = ids.filter((id) => text.includes(id) && !path.includes(id));
          if (!refused || shown.length > 0)
            leaks.push(`${who}: ${operation.method} ${path} → ${response.status} ${text.slice(0, 160)}`);
          if (operation.method === 'get' && response.status === 400 && !operation.path.startsWith('/test-clocks'))
            leaks.push(`${who}: ${operation.method} ${path} → 400 where 404 was due`);
        } else if (response.status === 200) {
          const shown = ids.filter((id) => text.includes(id));
          if (shown.length > 0) leaks.push(`${who}: ${operation.method} ${path} lists ${shown.join(', ')}`);
        }
      }
    }
    const after = await snapshot();
    const changed = after.filter((body, index) => JSON.stringify(body) !== JSON.stringify(before[index])).length;
    console.log(
      `      isolation: ${attempts} attempts by ${strangers.length} key kinds on ${operations.length} operations, ` +
        `${owned.size} owned objects: leaks ${leaks.length}, owned objects changed ${changed}`,
    );
    expect(leaks).to.deep.equal([]);
    expect(after).to.deep.equal(before);
  });
});
