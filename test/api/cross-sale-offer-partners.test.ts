import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { createOtherAccount, type ApiError, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { createPlan } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';

interface Offer {
  id: string;
  accountId: string;
  title: string;
  charge: { amount: number; currency: string; capture: boolean } | null;
  subscription: { planId: string; captureCharges: boolean } | null;
  visibleForAllPartners: boolean;
  partnerIds: string[];
  visibleForPartnerIds: string[];
  deleted?: true;
}

describe('partner lists and the cross-sale offers a merchant sees', function () {
  this.timeout(90_000);
  const { api, service, keys } = useService();

  const partnersCli = async (...args: string[]) => {
    const result = await runCli(['accounts', 'partners', ...args], service.dataDir);
    return { ...result, json: () => JSON.parse(result.stdout) as { accountId: string; partnerIds: string[] } };
  };
  const offer = async (client: ApiClient, title: string, extra: Record<string, unknown> = {}) => {
    const response = await client.post<Offer>('/cross-sale-offers', {
      json: { charge: { amount: 500, currency: 'EUR' }, template: 'text_only', title, ...extra },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const listed = async (client: ApiClient, query: Record<string, string> = {}) => {
    const response = await client.get<Page<Offer>>('/cross-sale-offers', { query: { limit: '100', ...query } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.list.map((item) => item.title);
  };

  it('keeps a partner list with accounts partners add/remove/list, refusing unknown accounts and the account itself', async () => {
    const { keys: partner } = await createOtherAccount(api, service.dataDir, 'Listed partner');
    const added = await partnersCli('add', keys.id, partner.id, '--json');
    expect(added.code, added.stderr).to.equal(0);
    expect(added.json()).to.deep.equal({ accountId: keys.id, partnerIds: [partner.id] });
    // Adding again and removing one not listed change nothing.
    expect((await partnersCli('add', keys.id, partner.id, '--json')).json().partnerIds).to.deep.equal([partner.id]);
    expect((await partnersCli('remove', keys.id, 'acct_NotListed1', '--json')).json().partnerIds).to.deep.equal([
      partner.id,
    ]);
    const plain = await partnersCli('list', keys.id);
    expect(plain.stdout).to.equal(`${partner.id}\n`);

    const unknown = await partnersCli('add', keys.id, 'acct_NoSuchAccount1');
    expect(unknown.code).to.not.equal(0);
    expect(unknown.stderr).to.contain("Account 'acct_NoSuchAccount1' does not exist");
    const itself = await partnersCli('add', keys.id, keys.id);
    expect(itself.code).to.not.equal(0);
    expect(itself.stderr).to.contain('cannot be its own partner');
    const notAnAccount = await partnersCli('add', keys.id, 'cust_1');
    expect(notAnAccount.code).to.not.equal(0);
    expect(notAnAccount.stderr).to.contain('partnerId must be an account id');
    const unknownAccount = await partnersCli('list', 'acct_NoSuchAccount1');
    expect(unknownAccount.code).to.not.equal(0);

    const removed = await partnersCli('remove', keys.id, partner.id, '--json');
    expect(removed.json().partnerIds).to.deep.equal([]);
    // Every change is an event on the account's stream.
    const stream = await runCli(['streams', 'show', keys.id, '--json'], service.dataDir);
    const types = stream.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types.filter((type) => type.startsWith('AccountPartner'))).to.deep.equal([
      'AccountPartnerAdded',
      'AccountPartnerRemoved',
    ]);
  });

  it("lists own offers and the partners' visible ones, one direction only, same mode, pages across both", async () => {
    const merchant = await createOtherAccount(api, service.dataDir, 'Merchant');
    const partner = await createOtherAccount(api, service.dataDir, 'Partner');
    const second = await createOtherAccount(api, service.dataDir, 'Second partner');
    const stranger = await createOtherAccount(api, service.dataDir, 'Stranger');

    const own1 = await offer(merchant.api, 'own 1');
    const forAll = await offer(partner.api, 'partner for all', { visibleForAllPartners: true });
    const forMerchant = await offer(partner.api, 'partner for merchant', { partnerIds: [merchant.keys.id] });
    const forStranger = await offer(partner.api, 'partner for stranger', { partnerIds: [stranger.keys.id] });
    const gone = await offer(partner.api, 'partner deleted', { visibleForAllPartners: true });
    expect((await partner.api.delete(`/cross-sale-offers/${gone.id}`)).status).to.equal(200);
    await offer(partner.api.withKey(partner.keys.liveSecretKey), 'partner live', { visibleForAllPartners: true });
    await offer(stranger.api, 'stranger for all', { visibleForAllPartners: true });
    const own2 = await offer(merchant.api, 'own 2');
    await offer(second.api, 'second for all', { visibleForAllPartners: true });
    const ownGone = await offer(merchant.api, 'own deleted');
    expect((await merchant.api.delete(`/cross-sale-offers/${ownGone.id}`)).status).to.equal(200);

    // Nobody on the list yet: own offers only.
    expect(await listed(merchant.api)).to.deep.equal(['own 2', 'own 1']);
    expect((await merchant.api.get(`/cross-sale-offers/${forAll.id}`)).status).to.equal(404);

    for (const partnerId of [partner.keys.id, second.keys.id])
      expect((await partnersCli('add', merchant.keys.id, partnerId)).code).to.equal(0);
    const everything = ['second for all', 'own 2', 'partner for merchant', 'partner for all', 'own 1'];
    await eventually(
      () => listed(merchant.api),
      (titles) => titles.length === everything.length,
    );
    expect(await listed(merchant.api)).to.deep.equal(everything);
    expect(await listed(merchant.api, { owner: 'self' })).to.deep.equal(['own 2', 'own 1']);
    expect(await listed(merchant.api, { deleted: 'true' })).to.deep.equal(['own deleted', 'partner deleted']);
    // Each mode sees its own: the partner's live offer only in live mode.
    expect(await listed(merchant.api.withKey(merchant.keys.liveSecretKey))).to.deep.equal(['partner live']);
    // Directed: the partner does not see the merchant's offers.
    expect(await listed(partner.api)).to.deep.equal([
      'partner for stranger',
      'partner for merchant',
      'partner for all',
    ]);

    // Each offer tells whose it is.
    const page = (await merchant.api.get<Page<Offer>>('/cross-sale-offers')).body.list;
    expect(page.map((item) => item.accountId)).to.deep.equal([
      second.keys.id,
      merchant.keys.id,
      partner.keys.id,
      partner.keys.id,
      merchant.keys.id,
    ]);

    // Pages of one, forwards and backwards, walk the same union.
    const forwards: string[] = [];
    let after: string | undefined;
    for (;;) {
      const query: Record<string, string> = { limit: '2', ...(after ? { startingAfterId: after } : {}) };
      const response = (await merchant.api.get<Page<Offer>>('/cross-sale-offers', { query })).body;
      forwards.push(...response.list.map((item) => item.title));
      after = response.list.at(-1)?.id;
      if (!response.hasMore) break;
    }
    expect(forwards).to.deep.equal(everything);
    const backwards: string[] = [];
    let before: string | undefined = own1.id;
    for (;;) {
      const query = { limit: '2', endingBeforeId: before! };
      const response: Page<Offer> = (await merchant.api.get<Page<Offer>>('/cross-sale-offers', { query })).body;
      backwards.unshift(...response.list.map((item) => item.title));
      before = response.list[0]?.id;
      if (!response.hasMore) break;
    }
    expect(backwards).to.deep.equal(everything.slice(0, -1));
    const cursor = await merchant.api.get<ApiError>('/cross-sale-offers', {
      query: { startingAfterId: forStranger.id },
    });
    expect(cursor.status).to.equal(400);

    // A visible partner offer is readable, never changeable; an invisible one is not there.
    const read = await merchant.api.get<Offer>(`/cross-sale-offers/${forMerchant.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.include({ id: forMerchant.id, accountId: partner.keys.id, title: 'partner for merchant' });
    expect((await merchant.api.get<Offer>(`/cross-sale-offers/${gone.id}`)).body).to.include({ deleted: true });
    expect((await merchant.api.get(`/cross-sale-offers/${forStranger.id}`)).status).to.equal(404);
    expect((await merchant.api.post(`/cross-sale-offers/${forAll.id}`, { json: { title: 'x' } })).status).to.equal(404);
    expect((await merchant.api.delete(`/cross-sale-offers/${forAll.id}`)).status).to.equal(404);
    expect((await partner.api.get(`/cross-sale-offers/${own2.id}`)).status).to.equal(404);

    // The owner narrows an offer: the merchant no longer sees it.
    await partner.api.post(`/cross-sale-offers/${forMerchant.id}`, { json: { partnerIds: [stranger.keys.id] } });
    expect(await listed(merchant.api)).to.not.include('partner for merchant');
    expect((await merchant.api.get(`/cross-sale-offers/${forMerchant.id}`)).status).to.equal(404);

    // Off the list: the partner's offers are gone from the merchant's view.
    expect((await partnersCli('remove', merchant.keys.id, partner.keys.id)).code).to.equal(0);
    await eventually(
      () => listed(merchant.api),
      (titles) => !titles.includes('partner for all'),
    );
    expect(await listed(merchant.api)).to.deep.equal(['second for all', 'own 2', 'own 1']);
    expect((await merchant.api.get(`/cross-sale-offers/${forAll.id}`)).status).to.equal(404);
  });

  it("shows a partner's subscription offer, on the partner's own plan, to the merchant it is visible to", async () => {
    const merchant = await createOtherAccount(api, service.dataDir, 'Subscribing merchant');
    const partner = await createOtherAccount(api, service.dataDir, 'Subscription partner');
    expect((await partnersCli('add', merchant.keys.id, partner.keys.id)).code).to.equal(0);
    // The plan is the partner's: the merchant cannot name it in an offer of its own.
    const plan = await createPlan(partner.api, { amount: 1_500, name: 'Magazine' });
    const refused = await merchant.api.post<ApiError>('/cross-sale-offers', {
      json: { subscription: { planId: plan.id }, template: 'text_only', title: 'Not my plan' },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.param).to.equal('subscription[planId]');

    const magazine = await offer(partner.api, 'magazine', {
      charge: undefined,
      subscription: { planId: plan.id },
      partnerIds: [merchant.keys.id],
    });
    await eventually(
      () => listed(merchant.api),
      (titles) => titles.includes('magazine'),
    );
    const shown = (await merchant.api.get<Offer>(`/cross-sale-offers/${magazine.id}`)).body;
    expect(shown).to.deep.include({
      accountId: partner.keys.id,
      charge: null,
      subscription: { planId: plan.id, captureCharges: true },
    });
    const page = (await merchant.api.get<Page<Offer>>('/cross-sale-offers')).body.list;
    expect(page.find((item) => item.id === magazine.id)).to.deep.equal(shown);
    expect(await listed(merchant.api, { owner: 'self' })).to.deep.equal([]);
    expect((await merchant.api.post(`/cross-sale-offers/${magazine.id}`, { json: { title: 'x' } })).status).to.equal(
      404,
    );
  });

  it('takes the partner setting by the name the public client libraries send, visibleForPartnerIds, and answers it by both names', async () => {
    const merchant = await createOtherAccount(api, service.dataDir, 'Client library merchant');
    const partner = await createOtherAccount(api, service.dataDir, 'Client library partner');
    const other = await createOtherAccount(api, service.dataDir, 'Client library other');
    expect((await partnersCli('add', merchant.keys.id, partner.keys.id)).code).to.equal(0);
    const plan = await createPlan(partner.api, { amount: 900, name: 'Newsletter' });
    // As the public libraries build it: a subscription offer for named partners.
    const newsletter = await offer(partner.api, 'newsletter', {
      charge: undefined,
      subscription: { planId: plan.id, captureCharges: true },
      visibleForAllPartners: false,
      visibleForPartnerIds: [merchant.keys.id],
    });
    expect(newsletter).to.deep.include({ partnerIds: [merchant.keys.id], visibleForPartnerIds: [merchant.keys.id] });
    await eventually(
      () => listed(merchant.api),
      (titles) => titles.includes('newsletter'),
    );
    expect(
      (await merchant.api.get<Offer>(`/cross-sale-offers/${newsletter.id}`)).body.visibleForPartnerIds,
    ).to.deep.equal([merchant.keys.id]);

    const updated = await partner.api.post<Offer>(`/cross-sale-offers/${newsletter.id}`, {
      json: { visibleForPartnerIds: [merchant.keys.id, other.keys.id] },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.deep.include({
      partnerIds: [merchant.keys.id, other.keys.id],
      visibleForPartnerIds: [merchant.keys.id, other.keys.id],
    });

    // Both names at once must agree; otherwise nothing is recorded.
    const before = (await partner.api.get<Page<Offer>>('/cross-sale-offers')).body.list;
    for (const [path, json] of [
      [
        '/cross-sale-offers',
        {
          charge: { amount: 500, currency: 'EUR' },
          template: 'text_only',
          title: 'disagreeing',
          partnerIds: [merchant.keys.id],
          visibleForPartnerIds: [other.keys.id],
        },
      ],
      [`/cross-sale-offers/${newsletter.id}`, { partnerIds: [merchant.keys.id], visibleForPartnerIds: [] }],
    ] as const) {
      const refused = await partner.api.post<ApiError>(path, { json });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.message).to.equal(
        'Invalid parameter: visibleForPartnerIds must name the same accounts as partnerIds',
      );
    }
    expect((await partner.api.get<Page<Offer>>('/cross-sale-offers')).body.list).to.deep.equal(before);
  });
});
