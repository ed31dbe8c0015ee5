import { join } from 'node:path';
import { expect } from 'chai';
import { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { createDocumentStore } from '../../packages/readstore/create-document-store.ts';
import { CardFingerprinter } from '../../packages/vault/card-fingerprint.ts';
import { tenantFingerprint } from '../../packages/vault/tenant-fingerprint.ts';
import { loadOrCreateKey } from '../../packages/vault/vault-key.ts';
import { allProjections } from '../../services/resources/registries.ts';
import { liveBlacklistRules } from '../../services/api/blacklist-rules-query.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { createOtherAccount } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type Rule = { id: string; created: number; objectType: string; ruleType: string; deleted?: boolean } & Record<
  string,
  unknown
>;
type Page<T> = { list: T[]; hasMore: boolean };
type ErrorBody = { error: { type: string; message: string } };

const CARD_NUMBER = '4242424242424242';

/** One rule per type: what is sent, and the attributes the rule then carries. */
const ruleCases: { ruleType: string; send: Record<string, string>; carries: Record<string, string> }[] = [
  { ruleType: 'fingerprint', send: { fingerprint: 'fp-test-0001' }, carries: { fingerprint: 'fp-test-0001' } },
  { ruleType: 'ip_address', send: { ipAddress: '203.0.113.7' }, carries: { ipAddress: '203.0.113.7' } },
  { ruleType: 'ip_country', send: { ipCountry: 'pl' }, carries: { ipCountry: 'PL' } },
  {
    ruleType: 'metadata',
    send: { metadataKey: 'campaign', metadataValue: 'spam' },
    carries: { metadataKey: 'campaign', metadataValue: 'spam' },
  },
  { ruleType: 'email', send: { email: 'Fraud@Example.com' }, carries: { email: 'Fraud@Example.com' } },
  {
    ruleType: 'user_agent',
    send: { userAgent: 'BadBot/1.0 (+http://bad.example)' },
    carries: { userAgent: 'BadBot/1.0 (+http://bad.example)' },
  },
  {
    ruleType: 'accept_language',
    send: { acceptLanguage: 'xx-XX,xx;q=0.9' },
    carries: { acceptLanguage: 'xx-XX,xx;q=0.9' },
  },
];

describe('blacklist rules over HTTP', function () {
  this.timeout(60_000);
  // More than a second's worth of requests at the default rate limit: lifted, the test is about paging.
  const { api, service, keys } = useService({ env: { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' } });

  const allRules = async (query: Record<string, string> = {}): Promise<Rule[]> =>
    (await api.get<Page<Rule>>('/blacklist', { query: { limit: '100', ...query } })).body.list;

  const expectBadRequest = (response: ApiResponse<unknown>, message: RegExp, what: string) => {
    expect(response.status, what).to.equal(400);
    expect(response.body, what).to.have.nested.property('error.type', 'invalid_request');
    expect((response.body as ErrorBody).error.message, what).to.match(message);
  };

  it('creates each rule type from JSON and from a form body alike, readable and listed at once', async () => {
    for (const { ruleType, send, carries } of ruleCases) {
      const fromJson = await api.post<Rule>('/blacklist', { json: { ruleType, ...send } });
      const fromForm = await api.post<Rule>('/blacklist', { form: { ruleType, ...send } });
      for (const response of [fromJson, fromForm]) {
        expect(response.status, ruleType).to.equal(200);
        expect(response.body.id).to.match(/^blr_[A-Za-z0-9]{24}$/);
        expect(response.body.created).to.be.within(
          Math.floor(Date.now() / 1000) - 60,
          Math.floor(Date.now() / 1000) + 1,
        );
        const { id: _id, created: _created, ...rest } = response.body;
        // The rule type's attributes and nothing else.
        expect(rest, ruleType).to.deep.equal({ objectType: 'blacklistRule', ruleType, ...carries });
        const read = await api.get<Rule>(`/blacklist/${response.body.id}`);
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.equal(response.body);
      }
      const listed = await allRules();
      expect(listed.slice(0, 2)).to.deep.equal([fromForm.body, fromJson.body]);
    }
  });

  it('turns a card number into its fingerprint and never keeps, shows or logs the number', async () => {
    const fromNumber = await api.post<Rule>('/blacklist', {
      json: { ruleType: 'fingerprint', cardNumber: CARD_NUMBER },
    });
    expect(fromNumber.status).to.equal(200);
    const fingerprint = fromNumber.body.fingerprint as string;
    expect(fingerprint).to.be.a('string').and.not.equal(CARD_NUMBER);
    // The same keyed hash cards get (the service's fingerprint key in its data directory), as this
    // account and mode see it.
    const fingerprinter = new CardFingerprinter(loadOrCreateKey(undefined, service.dataDir, 'fingerprint.key'));
    expect(fingerprint).to.equal(
      tenantFingerprint(fingerprinter.fingerprint(CARD_NUMBER), { accountId: service.keys!.id, mode: 'test' }),
    );

    const fromFingerprint = await api.post<Rule>('/blacklist', { json: { ruleType: 'fingerprint', fingerprint } });
    expect(fromFingerprint.body.fingerprint).to.equal(fingerprint);
    const fromForm = await api.post<Rule>('/blacklist', {
      form: { ruleType: 'fingerprint', cardNumber: ` ${CARD_NUMBER} ` },
    });
    expect(fromForm.body.fingerprint).to.equal(fingerprint);

    const read = await api.get<Rule>(`/blacklist/${fromNumber.body.id}`);
    const listed = await api.get<Page<Rule>>('/blacklist', { query: { limit: '100' } });
    const shown = await runCli(['streams', 'show', fromNumber.body.id, '--json'], service.dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    const rows = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(rows.map((row) => row.type)).to.deep.equal(['BlacklistRuleCreated']);
    expect(rows[0]!.data).to.deep.equal({ ruleId: fromNumber.body.id, ruleType: 'fingerprint', fingerprint });
    for (const text of [
      JSON.stringify(fromNumber.body),
      JSON.stringify(read.body),
      JSON.stringify(listed.body),
      shown.stdout,
      service.output(),
    ]) {
      expect(text).to.not.include(CARD_NUMBER);
    }
  });

  it('wants exactly one of fingerprint and cardNumber for a fingerprint rule', async () => {
    const both = await api.post('/blacklist', {
      json: { ruleType: 'fingerprint', fingerprint: 'fp-x', cardNumber: CARD_NUMBER },
    });
    expectBadRequest(both, /fingerprint.*cardNumber/, 'both');
    const neither = await api.post('/blacklist', { form: { ruleType: 'fingerprint' } });
    expectBadRequest(neither, /fingerprint.*cardNumber/, 'neither');
    const notACard = await api.post('/blacklist', {
      json: { ruleType: 'fingerprint', cardNumber: '4242424242424241' },
    });
    expectBadRequest(notACard, /cardNumber/, 'Luhn failure');
    for (const response of [both, neither, notACard])
      expect(JSON.stringify(response.body)).to.not.match(/424242424242424/);
  });

  it('answers bad input with 400 invalid_request naming the parameter, and records nothing', async () => {
    const before = (await allRules()).map((rule) => rule.id);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /ruleType/],
      [{ ruleType: 'zip_code', zipCode: '12345' }, /ruleType|zipCode/],
      [{ ruleType: 'zip_code' }, /ruleType/],
      [{ ruleType: 'ip_address' }, /ipAddress/],
      [{ ruleType: 'ip_address', ipAddress: 'not-an-ip' }, /ipAddress/],
      [{ ruleType: 'ip_country' }, /ipCountry/],
      [{ ruleType: 'ip_country', ipCountry: 'Poland' }, /ipCountry/],
      [{ ruleType: 'ip_country', ipCountry: 'QQ' }, /ipCountry/],
      [{ ruleType: 'metadata', metadataKey: 'campaign' }, /metadataValue/],
      [{ ruleType: 'metadata', metadataValue: 'spam' }, /metadataKey/],
      [{ ruleType: 'email' }, /email/],
      [{ ruleType: 'email', email: 'nope' }, /email/],
      [{ ruleType: 'user_agent' }, /userAgent/],
      [{ ruleType: 'user_agent', userAgent: '' }, /userAgent/],
      [{ ruleType: 'accept_language' }, /acceptLanguage/],
      // An attribute of another rule type.
      [{ ruleType: 'email', email: 'a@example.com', ipAddress: '203.0.113.7' }, /ipAddress/],
      [{ ruleType: 'ip_address', ipAddress: '203.0.113.7', cardNumber: CARD_NUMBER }, /cardNumber/],
      [{ ruleType: 'email', email: 'a@example.com', color: 'red' }, /Unknown parameter: color/],
      [{ ruleType: 'email', email: 42 }, /email/],
    ];
    for (const [body, message] of cases) {
      expectBadRequest(await api.post('/blacklist', { json: body }), message, JSON.stringify(body));
      const form = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)]));
      if (typeof body.email !== 'number')
        expectBadRequest(await api.post('/blacklist', { form }), message, `form ${JSON.stringify(form)}`);
    }
    const badQueries: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { deleted: 'maybe' },
      { ruleType: 'email' },
      { startingAfterId: 'blr_doesnotexist' },
    ];
    for (const query of badQueries) {
      const response = await api.get('/blacklist', { query });
      expect(response.status, JSON.stringify(query)).to.equal(400);
    }
    expect((await allRules()).map((rule) => rule.id)).to.deep.equal(before);
  });

  it('deletes softly: readable with deleted: true, listed only with deleted=true, not deleted twice', async () => {
    const kept = (await api.post<Rule>('/blacklist', { json: { ruleType: 'email', email: 'kept@example.com' } })).body;
    const gone = (await api.post<Rule>('/blacklist', { json: { ruleType: 'email', email: 'gone@example.com' } })).body;
    const deleted = await api.delete(`/blacklist/${gone.id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: gone.id });

    const read = await api.get<Rule>(`/blacklist/${gone.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal({ ...gone, deleted: true });
    const live = (await allRules()).map((rule) => rule.id);
    expect(live).to.include(kept.id).and.not.include(gone.id);
    const onlyDeleted = await allRules({ deleted: 'true' });
    expect(onlyDeleted.map((rule) => rule.id))
      .to.include(gone.id)
      .and.not.include(kept.id);
    expect(onlyDeleted.every((rule) => rule.deleted === true)).to.equal(true);

    const again = await api.delete(`/blacklist/${gone.id}`);
    expectBadRequest(again, /already deleted/, 'second delete');
    const missing = await api.delete('/blacklist/blr_doesnotexist');
    expect(missing.status).to.equal(404);
    expect((await api.get('/blacklist/blr_doesnotexist')).status).to.equal(404);
  });

  it("keeps tenants apart: another account's or mode's rule is a 404 and never listed", async () => {
    const { api: otherApi } = await createOtherAccount(api, service.dataDir, 'Other shop');

    const mine = (await api.post<Rule>('/blacklist', { json: { ruleType: 'ip_address', ipAddress: '198.51.100.1' } }))
      .body;
    const live = api.withKey(keys.liveSecretKey);
    for (const stranger of [otherApi, live]) {
      const read = await stranger.get(`/blacklist/${mine.id}`);
      expect(read.status).to.equal(404);
      expect(read.body).to.have.nested.property('error.type', 'invalid_request');
      expect((await stranger.delete(`/blacklist/${mine.id}`)).status).to.equal(404);
      for (const deleted of ['false', 'true']) {
        const listed = await stranger.get<Page<Rule>>('/blacklist', { query: { deleted, limit: '100' } });
        expect(listed.body.list.map((rule) => rule.id)).to.not.include(mine.id);
      }
    }
    expect((await api.get(`/blacklist/${mine.id}`)).status).to.equal(200);
  });

  it('gives charges every live rule of the account and mode, over several pages, as domain rules', async () => {
    const created: Rule[] = [];
    for (let i = 0; i < 105; i++) {
      const rule = await api.post<Rule>('/blacklist', { json: { ruleType: 'email', email: `bulk-${i}@example.com` } });
      expect(rule.status, JSON.stringify(rule.body)).to.equal(200);
      created.push(rule.body);
    }
    await api.delete(`/blacklist/${created[0]!.id}`);
    const inLive = (
      await api
        .withKey(keys.liveSecretKey)
        .post<Rule>('/blacklist', { json: { ruleType: 'ip_country', ipCountry: 'DE' } })
    ).body;

    const readStore = await createDocumentStore({ sqlitePath: join(service.dataDir, 'read.sqlite') });
    try {
      const readModels = new ReadModels(readStore, allProjections());
      await readModels.refresh();
      const rules = await liveBlacklistRules(readModels, { accountId: keys.id, mode: 'test' });
      const ids = rules.map((rule) => rule.ruleId);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids).to.include.members(created.slice(1).map((rule) => rule.id));
      expect(ids).to.not.include(created[0]!.id).and.not.include(inLive.id);
      expect(rules.find((rule) => rule.ruleId === created[1]!.id)).to.deep.equal({
        ruleId: created[1]!.id,
        ruleType: 'email',
        email: 'bulk-1@example.com',
      });
      // More than one page of the store's list (100).
      expect(rules.length).to.be.greaterThan(100);
      const liveRules = await liveBlacklistRules(readModels, { accountId: keys.id, mode: 'live' });
      expect(liveRules).to.deep.equal([{ ruleId: inLive.id, ruleType: 'ip_country', ipCountry: 'DE' }]);
    } finally {
      await readStore.close();
    }
  });
});
