import { expect } from 'chai';
import type { CrossSalePurchaseInput } from '../../packages/commands/cross-sale-offer-commands.ts';
import { PaymentDeclined } from '../../packages/commands/payment-declined.ts';
import { loadConfig } from '../../packages/config/environment.ts';
import { CardError, InvalidRequestError } from '../../packages/domain/errors.ts';
import { openPlatform, type Platform } from '../../services/platform.ts';
import { eventually } from '../support/eventually.ts';
import {
  cardDetails,
  createOtherAccount,
  eventsOf,
  type Charge,
  type Customer,
  type PublicEvent,
} from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { createPlan, type Subscription } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';

type CrossSaleCharge = Charge & {
  crossSale?: {
    offerId: string;
    merchantAccountId: string;
    merchantChargeId: string | null;
    merchantSubscriptionId: string | null;
  };
  crossSaleCharges?: { accountId: string; chargeId: string; offerId: string }[];
};

/**
 * What a checkout does after its main transaction: which offers it may show
 * (`crossSaleOfferVisibility.availableTo`) and buying one (`crossSaleOffers.purchase`). The commands run
 * in this process on the service's own data directory (as the CLI does); what they record is
 * read back over HTTP from the running service.
 */
describe('cross-sale offers in a checkout: available offers and purchases', function () {
  this.timeout(90_000);
  const { api, service, keys } = useService();
  let platform: Platform;
  let owner: Awaited<ReturnType<typeof createOtherAccount>>;
  let stranger: Awaited<ReturnType<typeof createOtherAccount>>;
  let customer: Customer;
  let mainCharge: Charge;
  let offerId: string;
  let ownOfferId: string;
  let strangersOfferId: string;

  const context = { requestId: 'req_checkout', actor: 'system:checkout', now: () => new Date() };
  const createOffer = async (client: typeof api, extra: Record<string, unknown>) => {
    const response = await client.post<{ id: string }>('/cross-sale-offers', {
      json: { charge: { amount: 990, currency: 'USD' }, template: 'text_only', title: 'Travel insurance', ...extra },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.id;
  };
  const purchase = (overrides: Partial<CrossSalePurchaseInput> = {}) =>
    platform.commands.crossSaleOffers.purchase(
      {
        offerId,
        merchant: { accountId: keys.id, mode: 'test', chargeId: mainCharge.id, subscriptionId: null },
        card: { customerId: customer.id, cardId: customer.defaultCardId! },
        email: 'payer@example.com',
        purchaseKey: 'session-1',
        ...overrides,
      },
      context,
    );
  const refusal = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(InvalidRequestError);
    return error as InvalidRequestError;
  };

  before(async () => {
    owner = await createOtherAccount(api, service.dataDir, 'Insurer');
    stranger = await createOtherAccount(api, service.dataDir, 'Stranger');
    customer = (
      await api.post<Customer>('/customers', {
        json: { email: 'payer@example.com', card: cardDetails('4242424242424242') },
      })
    ).body;
    mainCharge = (
      await api.post<Charge>('/charges', { json: { amount: 2000, currency: 'EUR', customerId: customer.id } })
    ).body;
    expect(mainCharge.status).to.equal('successful');
    offerId = await createOffer(owner.api, {
      visibleForAllPartners: true,
      charge: { amount: 990, currency: 'USD', capture: false },
    });
    ownOfferId = await createOffer(api, { title: 'Gift wrap', charge: { amount: 300, currency: 'EUR' } });
    strangersOfferId = await createOffer(stranger.api, { visibleForAllPartners: true });
    const added = await runCli(['accounts', 'partners', 'add', keys.id, owner.keys.id], service.dataDir);
    expect(added.code, added.stderr).to.equal(0);
    platform = await openPlatform(loadConfig({ DATA_DIR: service.dataDir, LOG_LEVEL: 'error' }));
  });

  after(async () => {
    await platform?.close();
  });

  it('offers the merchant its own offers and its partners’ visible ones, or exactly those asked for', async () => {
    const available = await eventually(
      () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
      (offers) => offers.length === 2,
    );
    expect(available.map((offer) => [offer.id, offer.accountId])).to.deep.equal([
      [ownOfferId, keys.id],
      [offerId, owner.keys.id],
    ]);
    expect(available[1]).to.deep.equal({
      id: offerId,
      accountId: owner.keys.id,
      template: 'text_only',
      title: 'Travel insurance',
      description: null,
      imageUrl: null,
      charge: { amount: 990, currency: 'USD' },
      subscription: null,
      companyName: null,
      companyLocation: null,
      termsAndConditionsUrl: null,
    });
    const asked = await platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test', [offerId, ownOfferId]);
    expect(asked.map((offer) => offer.id)).to.deep.equal([offerId, ownOfferId]);
    expect(await platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'live')).to.deep.equal([]);

    const refused = await refusal(() =>
      platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test', [ownOfferId, strangersOfferId]),
    );
    expect(refused.param).to.equal('crossSaleOfferIds');
    expect(refused.message).to.contain(strangersOfferId);
  });

  it('charges the offer owner’s account with the main card, once per purchase key, and tells both accounts', async () => {
    const [first, second] = await Promise.all([purchase(), purchase()]);
    expect(second.chargeId).to.equal(first.chargeId);
    expect(first.accountId).to.equal(owner.keys.id);
    const again = await purchase();
    expect(again.chargeId).to.equal(first.chargeId);

    const charge = await eventually(
      async () => owner.api.get<CrossSaleCharge>(`/charges/${first.chargeId}`),
      (response) => response.status === 200,
    );
    expect(charge.body).to.deep.include({
      amount: 990,
      currency: 'USD',
      status: 'successful',
      captured: false,
      customerId: null,
      description: 'Travel insurance',
      crossSale: {
        offerId,
        merchantAccountId: keys.id,
        merchantChargeId: mainCharge.id,
        merchantSubscriptionId: null,
      },
    });
    expect(charge.body.card).to.include({ last4: '4242', first6: '424242' });
    const ownerCharges = (await owner.api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } })).body.list;
    expect(ownerCharges.map((listed) => listed.id)).to.deep.equal([first.chargeId]);
    // Nothing of it on the merchant's own charges but the list on its main charge.
    expect((await api.get(`/charges/${first.chargeId}`)).status).to.equal(404);

    const ownerEvents = await eventsOf<CrossSaleCharge>(owner.api, first.chargeId!);
    expect(ownerEvents.map((event) => event.type)).to.deep.equal(['CHARGE_SUCCEEDED']);
    expect(JSON.stringify(ownerEvents)).to.not.contain('4242424242424242');

    const main = await eventually(
      async () => (await api.get<CrossSaleCharge>(`/charges/${mainCharge.id}`)).body,
      (body) => body.crossSaleCharges !== undefined,
    );
    expect(main.crossSaleCharges).to.deep.equal([{ accountId: owner.keys.id, chargeId: first.chargeId, offerId }]);
    const mainEvents: PublicEvent<CrossSaleCharge>[] = await eventsOf<CrossSaleCharge>(api, mainCharge.id);
    expect(mainEvents.map((event) => event.type)).to.deep.equal(['CHARGE_UPDATED', 'CHARGE_SUCCEEDED']);
    expect(mainEvents[0]!.data.crossSaleCharges).to.have.length(1);

    // Another purchase key is another purchase.
    const other = await purchase({ purchaseKey: 'session-2' });
    expect(other.chargeId).to.not.equal(first.chargeId);
  });

  it('buys the merchant’s own offer on its own account', async () => {
    const bought = await purchase({ offerId: ownOfferId, purchaseKey: 'session-own' });
    expect(bought.accountId).to.equal(keys.id);
    const charge = await eventually(
      async () => api.get<CrossSaleCharge>(`/charges/${bought.chargeId}`),
      (response) => response.status === 200,
    );
    expect(charge.body).to.deep.include({ amount: 300, currency: 'EUR', captured: true });
    expect(charge.body.crossSale?.offerId).to.equal(ownOfferId);
  });

  it('lists the cross-sale charge on the subscription when the checkout made no charge of its own (a trial)', async () => {
    const plan = await createPlan(api);
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, {
        json: { planId: plan.id, trialEnd: Math.floor(Date.now() / 1000) + 3_600 },
      })
    ).body;
    expect(subscription.status).to.equal('trialing');
    const bought = await purchase({
      merchant: { accountId: keys.id, mode: 'test', chargeId: null, subscriptionId: subscription.id },
      purchaseKey: 'session-trial',
    });
    const listed = await eventually(
      async () =>
        (await api.get<Subscription & { crossSaleCharges?: unknown[] }>(`/subscriptions/${subscription.id}`)).body,
      (body) => body.crossSaleCharges !== undefined,
    );
    expect(listed.crossSaleCharges).to.deep.equal([{ accountId: owner.keys.id, chargeId: bought.chargeId, offerId }]);
    expect((await eventsOf(api, subscription.id)).map((event) => event.type)).to.deep.equal([
      'CUSTOMER_SUBSCRIPTION_UPDATED',
      'CUSTOMER_SUBSCRIPTION_CREATED',
    ]);
    const charge = (await owner.api.get<CrossSaleCharge>(`/charges/${bought.chargeId}`)).body;
    expect(charge.crossSale).to.deep.equal({
      offerId,
      merchantAccountId: keys.id,
      merchantChargeId: null,
      merchantSubscriptionId: subscription.id,
    });
  });

  it('refuses an offer the merchant may not use, a card not of the customer and a main charge not of the merchant', async () => {
    const chargesBefore = (await stranger.api.get<{ list: Charge[] }>('/charges')).body.list.length;
    expect((await refusal(() => purchase({ offerId: strangersOfferId, purchaseKey: 'k1' }))).param).to.equal('offerId');
    expect((await stranger.api.get<{ list: Charge[] }>('/charges')).body.list).to.have.length(chargesBefore);
    const card = await refusal(() =>
      purchase({ card: { customerId: customer.id, cardId: 'card_NotOfThisCustomer1' }, purchaseKey: 'k2' }),
    );
    expect(card.param).to.equal('card');
    const main = await refusal(() =>
      purchase({
        merchant: { accountId: keys.id, mode: 'test', chargeId: 'char_NotOfTheMerchant1', subscriptionId: null },
        purchaseKey: 'k3',
      }),
    );
    expect(main.param).to.equal('merchant.chargeId');
  });

  it('answers a purchase made before with its charge even once the offer is gone, and sells the gone offer no more', async () => {
    const first = await purchase({ purchaseKey: 'session-before-delete' });
    expect((await owner.api.delete(`/cross-sale-offers/${offerId}`)).status).to.equal(200);
    await eventually(
      () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
      (offers) => offers.every((available) => available.id !== offerId),
    );
    const again = await purchase({ purchaseKey: 'session-before-delete' });
    expect(again).to.deep.include({ accountId: owner.keys.id, chargeId: first.chargeId });
    expect((await refusal(() => purchase({ purchaseKey: 'session-after-delete' }))).param).to.equal('offerId');
  });

  describe('subscription offers', () => {
    const subscriptionOffer = async (client: typeof api, planFields: Record<string, unknown>, extra = {}) => {
      const plan = await createPlan(client, planFields);
      const response = await client.post<{ id: string }>('/cross-sale-offers', {
        json: { subscription: { planId: plan.id }, template: 'text_only', title: 'Magazine', ...extra },
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return { offerId: response.body.id, planId: plan.id };
    };
    const customersOf = async (client: typeof api) =>
      (await client.get<{ list: Customer[] }>('/customers', { query: { limit: '100' } })).body.list;
    const subscriptionsOf = async (client: typeof api) =>
      (await client.get<{ list: Subscription[] }>('/subscriptions', { query: { limit: '100' } })).body.list;

    it('subscribes the checkout’s customer to the merchant’s own plan with the card just used, once per purchase', async () => {
      // A customer whose default card is another one: the card of the checkout becomes the default.
      const payer = (
        await api.post<Customer>('/customers', {
          json: { email: 'reader@example.com', card: cardDetails('5555555555554444') },
        })
      ).body;
      const used = (
        await api.post<{ id: string }>(`/customers/${payer.id}/cards`, { json: cardDetails('4242424242424242') })
      ).body;
      const { offerId: own, planId } = await subscriptionOffer(api, { amount: 1_250, name: 'Weekly news' });
      await eventually(
        () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
        (offers) => offers.some((offered) => offered.subscription?.amount === 1_250),
      );
      const buy = () =>
        purchase({ offerId: own, card: { customerId: payer.id, cardId: used.id }, purchaseKey: 'session-sub' });
      const [first, second] = await Promise.all([buy(), buy()]);
      expect(first).to.deep.include({ accountId: keys.id, chargeId: null });
      expect(second.subscriptionId).to.equal(first.subscriptionId);
      expect((await buy()).subscriptionId).to.equal(first.subscriptionId);

      const subscription = await eventually(
        async () => api.get<Subscription>(`/subscriptions/${first.subscriptionId}`),
        // Read once the purchase's last event (its first charge's outcome) is projected.
        (response) => response.status === 200 && response.body.status !== 'incomplete',
      );
      expect(subscription.body).to.include({ planId, customerId: payer.id, status: 'active' });
      const customer = (await api.get<Customer>(`/customers/${payer.id}`)).body;
      expect(customer.defaultCardId).to.equal(used.id);
      // The first charge of the plan, on that card; one subscription for the three purchases.
      const firstCharges = (
        await api.get<{ list: Charge[] }>('/charges', { query: { customerId: payer.id, limit: '100' } })
      ).body.list;
      expect(firstCharges.map((charge) => [charge.amount, charge.card.last4])).to.deep.equal([[1_250, '4242']]);
      expect((await subscriptionsOf(api)).filter((listed) => listed.customerId === payer.id)).to.have.length(1);
    });

    it('subscribes a new customer of the partner, with the payer’s email and card; a trial charges nothing now', async () => {
      const { offerId: partners, planId } = await subscriptionOffer(
        owner.api,
        { amount: 800, name: 'Trial magazine', trialPeriodDays: 14 },
        { visibleForAllPartners: true },
      );
      await eventually(
        () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
        (offers) => offers.some((offered) => offered.id === partners),
      );
      const chargesBefore = (await owner.api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } })).body.list
        .length;
      const bought = await purchase({ offerId: partners, purchaseKey: 'session-partner-sub' });
      expect(bought).to.deep.include({ accountId: owner.keys.id, chargeId: null });
      const subscription = await eventually(
        async () => owner.api.get<Subscription>(`/subscriptions/${bought.subscriptionId}`),
        (response) => response.status === 200,
      );
      expect(subscription.body).to.include({ planId, status: 'trialing' });
      const subscriber = (await owner.api.get<Customer>(`/customers/${subscription.body.customerId}`)).body;
      expect(subscriber.email).to.equal('payer@example.com');
      expect(subscriber.cards.map((card) => card.last4)).to.deep.equal(['4242']);
      expect(JSON.stringify(await eventsOf(owner.api, subscriber.id))).to.not.contain('4242424242424242');
      const chargesAfter = (await owner.api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } })).body.list
        .length;
      expect(chargesAfter).to.equal(chargesBefore);
      // Nothing of it on the merchant's account.
      expect((await api.get(`/subscriptions/${bought.subscriptionId}`)).status).to.equal(404);
      // Bought again in the same checkout: the same subscription, no second customer.
      const customers = (await customersOf(owner.api)).length;
      expect((await purchase({ offerId: partners, purchaseKey: 'session-partner-sub' })).subscriptionId).to.equal(
        bought.subscriptionId,
      );
      expect(await customersOf(owner.api)).to.have.length(customers);
    });

    it('answers a declined first charge with the decline, again when bought again; the subscription stays incomplete', async () => {
      const { offerId: own } = await subscriptionOffer(api, { amount: 2_222, name: 'Declined box' });
      const declining = (
        await api.post<Customer>('/customers', {
          json: { email: 'declined@example.com', card: cardDetails('4000000000000341') },
        })
      ).body;
      await eventually(
        () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
        (offers) => offers.some((offered) => offered.id === own),
      );
      const buy = () =>
        purchase({
          offerId: own,
          card: { customerId: declining.id, cardId: declining.defaultCardId! },
          purchaseKey: 'session-declined-sub',
        }).then(
          () => null,
          (thrown: unknown) => thrown,
        );
      for (const error of [await buy(), await buy()]) {
        expect(error).to.be.instanceOf(PaymentDeclined);
        expect((error as PaymentDeclined).cardError).to.include({ code: 'card_declined' });
      }
      const subscriptions = await eventually(
        async () => (await subscriptionsOf(api)).filter((listed) => listed.customerId === declining.id),
        (listed) => listed.length === 1,
      );
      expect(subscriptions[0]!.status).to.equal('incomplete');
    });

    it('refuses a card whose issuer demands 3-D Secure, also with a trial, and an offer whose plan is gone: nothing is made', async () => {
      const { offerId: trialOffer } = await subscriptionOffer(
        owner.api,
        { amount: 600, name: 'Guarded', trialPeriodDays: 7 },
        { visibleForAllPartners: true },
      );
      const { offerId: goneOffer, planId: gonePlan } = await subscriptionOffer(
        owner.api,
        { amount: 700, name: 'Going' },
        { visibleForAllPartners: true },
      );
      expect((await owner.api.delete(`/plans/${gonePlan}`)).status).to.equal(200);
      const challenged = (
        await api.post<Customer>('/customers', {
          json: { email: 'challenged@example.com', card: cardDetails('4000000000003220') },
        })
      ).body;
      await eventually(
        () => platform.commands.crossSaleOfferVisibility.availableTo(keys.id, 'test'),
        (offers) => offers.some((offered) => offered.id === trialOffer),
      );
      const before = { customers: await customersOf(owner.api), subscriptions: await subscriptionsOf(owner.api) };

      const error = await purchase({
        offerId: trialOffer,
        card: { customerId: challenged.id, cardId: challenged.defaultCardId! },
        purchaseKey: 'session-challenged',
      }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).to.be.instanceOf(CardError);
      expect(error).to.include({
        code: 'authentication_required',
        message: 'The card requires 3-D Secure authentication.',
      });
      const gone = await refusal(() => purchase({ offerId: goneOffer, purchaseKey: 'session-gone-plan' }));
      expect(gone.param).to.equal('offerId');

      expect({
        customers: await customersOf(owner.api),
        subscriptions: await subscriptionsOf(owner.api),
      }).to.deep.equal(before);
    });
  });
});
