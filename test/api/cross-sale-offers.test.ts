import { expect } from 'chai';
import { Jimp } from 'jimp';
import { createOtherAccount, eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { eventually } from '../support/eventually.ts';
import { createPlan } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

interface Offer {
  id: string;
  objectType: string;
  accountId: string;
  charge: { amount: number; currency: string; capture: boolean } | null;
  subscription: { planId: string; captureCharges: boolean } | null;
  template: string;
  title: string;
  description: string | null;
  imageUrl: string | null;
  companyName: string | null;
  companyLocation: string | null;
  termsAndConditionsUrl: string | null;
  visibleForAllPartners: boolean;
  partnerIds: string[];
  deleted?: true;
}

/** A real small PNG (40×30, red), base64. */
async function pngBase64(width = 40, height = 30, color = 0xff0000ff): Promise<string> {
  const image = new Jimp({ width, height, color });
  return (await image.getBuffer('image/png')).toString('base64');
}

const textOffer = (extra: Record<string, unknown> = {}) => ({
  charge: { amount: 1500, currency: 'eur' },
  template: 'text_only',
  title: 'Extra',
  ...extra,
});

describe('cross-sale offers over HTTP', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();
  /** Accounts an offer's partnerIds may name: they must exist. */
  const partners: string[] = [];
  before(async () => {
    for (const name of ['Partner one', 'Partner two'])
      partners.push((await createOtherAccount(api, service.dataDir, name)).keys.id);
  });

  async function create(json: Record<string, unknown>): Promise<Offer> {
    const response = await api.post<Offer>('/cross-sale-offers', { json });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  }

  it('creates an offer from JSON with an image, scaled to 247×156 PNG and served without a key', async () => {
    const offer = await create({
      charge: { amount: 2500, currency: 'usd', capture: false },
      template: 'image_and_text',
      title: 'Gift wrap',
      description: 'Wrapped with care',
      imageData: await pngBase64(),
      companyName: 'Wraps Ltd',
      companyLocation: 'pl',
      termsAndConditionsUrl: 'https://example.com/terms',
      visibleForAllPartners: true,
      partnerIds: [partners[0]],
    });
    expect(offer.id).to.match(/^cso_[A-Za-z0-9]{24}$/);
    expect(offer).to.deep.include({
      objectType: 'crossSaleOffer',
      accountId: keys.id,
      charge: { amount: 2500, currency: 'USD', capture: false },
      template: 'image_and_text',
      title: 'Gift wrap',
      description: 'Wrapped with care',
      companyName: 'Wraps Ltd',
      companyLocation: 'PL',
      termsAndConditionsUrl: 'https://example.com/terms',
      visibleForAllPartners: true,
      partnerIds: [partners[0]],
    });
    // Absolute, with the service's address: a page of another origin shows it as it is.
    expect(offer.imageUrl!.slice(0, service.baseUrl.length)).to.equal(service.baseUrl);
    expect(offer.imageUrl!.slice(service.baseUrl.length)).to.match(
      /^\/cross-sale-offers\/images\/img_[A-Za-z0-9]{24}\.png$/,
    );
    expect((await api.get<Offer>(`/cross-sale-offers/${offer.id}`)).body).to.deep.equal(offer);
    expect((await api.get<{ list: Offer[] }>('/cross-sale-offers')).body.list[0]!.imageUrl).to.equal(offer.imageUrl);

    const image = await fetch(offer.imageUrl!);
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/png');
    const decoded = await Jimp.read(Buffer.from(await image.arrayBuffer()));
    expect([decoded.width, decoded.height]).to.deep.equal([247, 156]);
    expect((await fetch(`${service.baseUrl}/cross-sale-offers/images/img_unknown.png`)).status).to.equal(404);

    expect((await eventsOf(api, offer.id)).map((event) => event.type)).to.deep.equal(['CROSS_SALE_OFFER_CREATED']);
  });

  it('answers a malformed image path with the JSON error envelope and logs it redacted', async () => {
    const response = await fetch(`${service.baseUrl}/cross-sale-offers/images/%E0%A44000000000000077.png`);
    expect(response.status).to.equal(400);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).to.match(/^req_/);
    expect(await response.json()).to.deep.equal({
      error: { type: 'invalid_request', message: 'Invalid request: the request is malformed' },
    });
    await eventually(
      async () => service.output(),
      (output) => output.includes(`"requestId":"${requestId}"`),
    );
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.includes(requestId!));
    expect(lines.join('\n')).to.contain('Malformed request').and.not.contain('4000000000000077');
    expect(service.output()).not.to.contain('at decodeParam');
    const missing = await fetch(`${service.baseUrl}/cross-sale-offers/images/img_unknown.png`);
    expect(missing.headers.get('x-request-id')).to.match(/^req_/);
    expect(await missing.json()).to.deep.equal({ error: { type: 'invalid_request', message: 'No such image' } });
  });

  it('creates an offer from a form, with defaults for what is omitted', async () => {
    const response = await api.post<Offer>('/cross-sale-offers', {
      form: {
        'charge[amount]': '700',
        'charge[currency]': 'GBP',
        template: 'text_only',
        title: 'Insurance',
        'partnerIds[0]': partners[0]!,
        'partnerIds[1]': partners[1]!,
      },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body).to.deep.include({
      charge: { amount: 700, currency: 'GBP', capture: true },
      template: 'text_only',
      title: 'Insurance',
      description: null,
      imageUrl: null,
      companyName: null,
      companyLocation: null,
      termsAndConditionsUrl: null,
      visibleForAllPartners: false,
      partnerIds: partners,
    });
  });

  it('validates the parameters and the image', async () => {
    const notImage = Buffer.from('just some text, not an image').toString('base64');
    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('garbage'),
    ]).toString('base64');
    for (const [json, parameter] of [
      [{ title: undefined }, 'title'],
      [{ template: 'video' }, 'template'],
      [{ charge: { amount: 100 } }, 'currency'],
      [{ charge: { amount: 100, currency: 'XXY' } }, 'currency'],
      [{ companyLocation: 'XX' }, 'companyLocation'],
      [{ termsAndConditionsUrl: 'ftp://x' }, 'termsAndConditionsUrl'],
      [{ imageData: 'not base64!!' }, 'imageData'],
      [{ imageData: notImage }, 'imageData'],
      [{ imageData: fakePng }, 'imageData'],
      [{ template: 'image_and_text' }, 'imageData'],
    ] as [Record<string, unknown>, string][]) {
      const response = await api.post<ApiError>('/cross-sale-offers', { json: textOffer(json) });
      expect(response.status, parameter).to.equal(400);
      expect(response.body.error.message, parameter).to.include(parameter);
    }
    const missing = await api.post<ApiError>('/cross-sale-offers', {
      json: { charge: { amount: 100, currency: 'EUR' }, template: 'text_only' },
    });
    expect(missing.body.error.message).to.equal('title: Must not be empty.');

    // Partner ids must name existing accounts, on create and on update; nothing is recorded otherwise.
    const unknown = await api.post<ApiError>('/cross-sale-offers', {
      json: textOffer({ partnerIds: [partners[0], 'acct_NoSuchAccount1'] }),
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error).to.deep.equal({
      type: 'invalid_request',
      message: "Invalid parameter: partnerIds[1]: account 'acct_NoSuchAccount1' does not exist",
      param: 'partnerIds',
    });
    const offer = await create(textOffer());
    const update = await api.post<ApiError>(`/cross-sale-offers/${offer.id}`, {
      json: { partnerIds: ['acct_NoSuchAccount1'] },
    });
    expect(update.status).to.equal(400);
    expect(update.body.error.param).to.equal('partnerIds');
    expect((await api.get<Offer>(`/cross-sale-offers/${offer.id}`)).body.partnerIds).to.deep.equal([]);
    const notAccount = await api.post<ApiError>('/cross-sale-offers', { json: textOffer({ partnerIds: ['cust_1'] }) });
    expect(notAccount.status).to.equal(400);
    expect(notAccount.body.error.message).to.include('partnerIds');
  });

  it('updates any parameter (charge parts merge); an update that changes nothing emits no event', async () => {
    const offer = await create(textOffer());
    const updated = await api.post<Offer>(`/cross-sale-offers/${offer.id}`, {
      json: {
        charge: { amount: 1800 },
        template: 'image_and_text',
        imageData: await pngBase64(500, 500, 0x00ff00ff),
        title: 'Renamed',
        companyLocation: 'DE',
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.deep.include({
      charge: { amount: 1800, currency: 'EUR', capture: true },
      template: 'image_and_text',
      title: 'Renamed',
      companyLocation: 'DE',
    });
    expect(updated.body.imageUrl!.startsWith(`${service.baseUrl}/cross-sale-offers/images/img_`)).to.equal(true);
    const image = await Jimp.read(Buffer.from(await (await fetch(updated.body.imageUrl!)).arrayBuffer()));
    expect([image.width, image.height]).to.deep.equal([247, 156]);

    await api.post(`/cross-sale-offers/${offer.id}`, { json: { title: 'Renamed', charge: { currency: 'eur' } } });
    const cleared = await api.post<Offer>(`/cross-sale-offers/${offer.id}`, { json: { companyLocation: null } });
    expect(cleared.body.companyLocation).to.equal(null);
    expect((await eventsOf(api, offer.id)).map((event) => event.type)).to.deep.equal([
      'CROSS_SALE_OFFER_UPDATED',
      'CROSS_SALE_OFFER_UPDATED',
      'CROSS_SALE_OFFER_CREATED',
    ]);
    const events = await eventsOf<Offer>(api, offer.id);
    expect(events[0]!.data).to.deep.equal(cleared.body);
  });

  it('deletes softly: readable with deleted: true, listed only with deleted=true, no longer updatable', async () => {
    const offer = await create(textOffer({ title: 'Short-lived' }));
    expect((await api.delete(`/cross-sale-offers/${offer.id}`)).body).to.deep.equal({ id: offer.id });
    expect((await api.get<Offer>(`/cross-sale-offers/${offer.id}`)).body).to.include({ id: offer.id, deleted: true });
    const ids = async (query: Record<string, string>) =>
      (await api.get<Page<Offer>>('/cross-sale-offers', { query })).body.list.map((item) => item.id);
    expect(await ids({ limit: '100' })).to.not.include(offer.id);
    expect(await ids({ limit: '100', owner: 'self' })).to.not.include(offer.id);
    expect(await ids({ deleted: 'true' })).to.include(offer.id);
    expect((await api.post(`/cross-sale-offers/${offer.id}`, { json: { title: 'x' } })).status).to.equal(400);
    expect((await api.delete(`/cross-sale-offers/${offer.id}`)).status).to.equal(400);
    const events = await eventsOf<Offer>(api, offer.id);
    expect(events[0]!.type).to.equal('CROSS_SALE_OFFER_DELETED');
    expect(events[0]!.data.deleted).to.equal(true);
  });

  it('creates, shows, lists and updates an offer that defines a subscription to a plan of the account', async () => {
    const plan = await createPlan(api, { amount: 999, name: 'Premium support' });
    // The public clients send subscription: { planId, captureCharges }, as JSON or as a form.
    const offer = await create({
      subscription: { planId: plan.id, captureCharges: false },
      template: 'text_only',
      title: 'Premium support',
    });
    expect(offer).to.deep.include({
      charge: null,
      subscription: { planId: plan.id, captureCharges: false },
      title: 'Premium support',
    });
    const form = await api.post<Offer>('/cross-sale-offers', {
      form: { 'subscription[planId]': plan.id, template: 'text_only', title: 'From a form' },
    });
    expect(form.status, JSON.stringify(form.body)).to.equal(200);
    expect(form.body.subscription).to.deep.equal({ planId: plan.id, captureCharges: true });

    expect((await api.get<Offer>(`/cross-sale-offers/${offer.id}`)).body).to.deep.equal(offer);
    const listed = (await api.get<Page<Offer>>('/cross-sale-offers', { query: { limit: '2', owner: 'self' } })).body;
    expect(listed.list).to.deep.equal([form.body, offer]);
    const [created] = await eventsOf<Offer>(api, offer.id);
    expect(created).to.deep.include({ type: 'CROSS_SALE_OFFER_CREATED', data: offer });

    // Parts merge; the other plan must be the account's too; giving a charge makes it a charge offer.
    const yearly = await createPlan(api, { amount: 9_900, interval: 'year', name: 'Yearly' });
    const moved = await api.post<Offer>(`/cross-sale-offers/${offer.id}`, {
      json: { subscription: { planId: yearly.id } },
    });
    expect(moved.body.subscription).to.deep.equal({ planId: yearly.id, captureCharges: false });
    const charged = await api.post<Offer>(`/cross-sale-offers/${offer.id}`, {
      json: { charge: { amount: 500, currency: 'EUR' } },
    });
    expect(charged.body).to.deep.include({
      charge: { amount: 500, currency: 'EUR', capture: true },
      subscription: null,
    });
    const back = await api.post<Offer>(`/cross-sale-offers/${offer.id}`, {
      json: { subscription: { planId: plan.id } },
    });
    expect(back.body).to.deep.include({ charge: null, subscription: { planId: plan.id, captureCharges: true } });
    // A charge offer becomes a subscription one only with its plan.
    const incomplete = await api.post<ApiError>(`/cross-sale-offers/${form.body.id}`, {
      json: { charge: { capture: false } },
    });
    expect(incomplete.status).to.equal(400);
    expect(incomplete.body.error.message).to.equal('charge[amount]: Must not be empty.');
    expect((await eventsOf(api, offer.id)).map((event) => event.type)).to.deep.equal([
      'CROSS_SALE_OFFER_UPDATED',
      'CROSS_SALE_OFFER_UPDATED',
      'CROSS_SALE_OFFER_UPDATED',
      'CROSS_SALE_OFFER_CREATED',
    ]);
  });

  it('refuses a subscription offer with a plan that is not the account’s, and an offer with both or neither, recording nothing', async () => {
    const plan = await createPlan(api);
    const deletedPlan = await createPlan(api, { name: 'Gone' });
    expect((await api.delete(`/plans/${deletedPlan.id}`)).status).to.equal(200);
    const { api: other } = await createOtherAccount(api, service.dataDir, 'Plan owner');
    const othersPlan = await createPlan(other);
    const livePlan = await createPlan(api.withKey(service.keys!.liveSecretKey));
    const offers = async () =>
      (await api.get<Page<Offer>>('/cross-sale-offers', { query: { limit: '100', owner: 'self' } })).body.list.length;
    const newestEvent = async () =>
      (await api.get<Page<{ id: string }>>('/events', { query: { limit: '1' } })).body.list[0]?.id;
    const offer = await create(textOffer());
    const before = { offers: await offers(), newestEvent: await newestEvent() };

    const base = { template: 'text_only', title: 'Premium' };
    for (const [planId, message] of [
      [
        'plan_NoSuchPlan00000001',
        `Invalid parameter: subscription[planId]: plan 'plan_NoSuchPlan00000001' does not exist`,
      ],
      [deletedPlan.id, `Invalid parameter: subscription[planId]: plan '${deletedPlan.id}' has been deleted`],
      [othersPlan.id, `Invalid parameter: subscription[planId]: plan '${othersPlan.id}' does not exist`],
      [livePlan.id, `Invalid parameter: subscription[planId]: plan '${livePlan.id}' does not exist`],
    ]) {
      const created = await api.post<ApiError>('/cross-sale-offers', { json: { ...base, subscription: { planId } } });
      expect(created.status, planId).to.equal(400);
      expect(created.body.error).to.deep.equal({ type: 'invalid_request', message, param: 'subscription[planId]' });
      const updated = await api.post<ApiError>(`/cross-sale-offers/${offer.id}`, {
        json: { subscription: { planId } },
      });
      expect(updated.status, planId).to.equal(400);
      expect(updated.body.error.param).to.equal('subscription[planId]');
    }
    const both = await api.post<ApiError>('/cross-sale-offers', {
      json: { ...base, charge: { amount: 500, currency: 'EUR' }, subscription: { planId: plan.id } },
    });
    expect(both.status).to.equal(400);
    expect(both.body.error.message).to.equal(
      'Invalid request: an offer defines either a charge or a subscription, not both',
    );
    const neither = await api.post<ApiError>('/cross-sale-offers', { json: base });
    expect(neither.status).to.equal(400);
    expect(neither.body.error.message).to.equal(
      'Invalid request: an offer defines either a charge or a subscription: give charge or subscription',
    );
    const bothOnUpdate = await api.post<ApiError>(`/cross-sale-offers/${offer.id}`, {
      json: { charge: { amount: 700 }, subscription: { planId: plan.id } },
    });
    expect(bothOnUpdate.status).to.equal(400);
    const noPlan = await api.post<ApiError>('/cross-sale-offers', { json: { ...base, subscription: {} } });
    expect(noPlan.status).to.equal(400);
    expect(noPlan.body.error.message).to.include('subscription[planId]');
    const notAPlan = await api.post<ApiError>('/cross-sale-offers', {
      json: { ...base, subscription: { planId: 'cust_1' } },
    });
    expect(notAPlan.status).to.equal(400);
    expect(notAPlan.body.error.message).to.include('subscription[planId]');

    expect({ offers: await offers(), newestEvent: await newestEvent() }).to.deep.equal(before);
    expect((await api.get<Offer>(`/cross-sale-offers/${offer.id}`)).body).to.deep.equal(offer);
  });

  it('lists newest first with the list parameters and owner=self; another account sees none of them', async () => {
    const first = await create(textOffer({ title: 'A' }));
    const second = await create(textOffer({ title: 'B' }));
    const page = (await api.get<Page<Offer>>('/cross-sale-offers', { query: { limit: '2', owner: 'self' } })).body;
    expect(page.list.map((offer) => offer.id)).to.deep.equal([second.id, first.id]);
    expect(page.hasMore).to.equal(true);
    expect((await api.get<ApiError>('/cross-sale-offers', { query: { owner: 'others' } })).status).to.equal(400);

    const { api: other } = await createOtherAccount(api, service.dataDir, 'Other merchant');
    expect((await other.get(`/cross-sale-offers/${first.id}`)).status).to.equal(404);
    expect((await other.post(`/cross-sale-offers/${first.id}`, { json: { title: 'Mine now' } })).status).to.equal(404);
    expect((await other.delete(`/cross-sale-offers/${first.id}`)).status).to.equal(404);
    expect((await other.get<Page<Offer>>('/cross-sale-offers')).body.list).to.deep.equal([]);
    expect((await api.withKey(service.keys!.liveSecretKey).get(`/cross-sale-offers/${first.id}`)).status).to.equal(404);
  });
});

describe('cross-sale offers in webhook deliveries', function () {
  this.timeout(60_000);
  const { api } = useService({ env: { PUBLIC_URL: 'https://payments.example.com:8443' } });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());

  it('gives the image the absolute address PUBLIC_URL names, as GET /events gives it the request’s', async () => {
    expect((await api.post('/webhook-endpoints', { json: { url: receiver.url } })).status).to.equal(200);
    const created = await api.post<Offer>('/cross-sale-offers', {
      json: {
        charge: { amount: 900, currency: 'EUR' },
        template: 'image_and_text',
        title: 'Insurance',
        imageData: await pngBase64(),
      },
    });
    expect(created.status).to.equal(200);
    const path = new URL(created.body.imageUrl!).pathname;
    await receiver.waitFor((received) => received.some((hook) => hook.body.includes('CROSS_SALE_OFFER_CREATED')));
    const delivered = receiver.received
      .map((hook) => JSON.parse(hook.body) as { type: string; data: Offer })
      .find((event) => event.type === 'CROSS_SALE_OFFER_CREATED')!;
    expect(delivered.data.id).to.equal(created.body.id);
    expect(delivered.data.imageUrl).to.equal(`https://payments.example.com:8443${path}`);
  });
});
