import { expect } from 'chai';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { cardDetails, type ApiError, type Charge, type Customer, type Page, type Token } from '../support/payments.ts';
import { createPlan, type Subscription } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';

const CHALLENGE = '4000000000003220';

interface Paid {
  charge?: Charge;
  customer: Customer;
  session: string;
}

/**
 * Subscription offers bought through the checkout page's calls (`POST /checkout/pay`, then
 * `POST /checkout/cross-sale-purchases`) with the public key, as the page makes them.
 */
describe('cross-sale offers that define a subscription, bought in checkout over HTTP', function () {
  this.timeout(60_000);
  const { api, keys } = useService();
  const sign = (request: object) => signCheckoutRequest(request, keys.testSecretKey);
  const call = <T>(path: string, json: Record<string, unknown>) =>
    api.post<T>(`/checkout/${path}`, { json, key: keys.testPublicKey });

  async function tokenOf(number: string): Promise<string> {
    const token = await api.post<{ id: string }>('/tokens', { json: cardDetails(number), key: keys.testPublicKey });
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    return token.body.id;
  }

  /** A token of the challenge card whose cardholder completed the challenge for `amount`. */
  async function authenticatedToken(amount: number): Promise<string> {
    const token = await tokenOf(CHALLENGE);
    await api.post<Token>(`/tokens/${token}/three-d-secure`, {
      json: { amount, currency: 'EUR' },
      key: keys.testPublicKey,
    });
    const answered = await api.post('/three-d-secure/challenge', {
      key: null,
      json: { token, key: keys.testPublicKey, outcome: 'complete', code: '123456' },
    });
    expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
    return token;
  }

  async function subscriptionOffer(planFields: Record<string, unknown>): Promise<{ offerId: string; planId: string }> {
    const plan = await createPlan(api, planFields);
    const offer = await api.post<{ id: string }>('/cross-sale-offers', {
      json: { subscription: { planId: plan.id }, template: 'text_only', title: 'Premium support' },
    });
    expect(offer.status, JSON.stringify(offer.body)).to.equal(200);
    return { offerId: offer.body.id, planId: plan.id };
  }

  const subscriptionsOf = async (customerId: string) =>
    (await api.get<Page<Subscription>>('/subscriptions', { query: { customerId } })).body.list;

  it('answers the subscription made for the checkout’s customer with the card that paid, the same one when bought again', async () => {
    const { offerId, planId } = await subscriptionOffer({ amount: 999, name: 'Premium support' });
    const request = { charge: { amount: 2000, currency: 'EUR' }, crossSaleOfferIds: [offerId] };
    const paid = await call<Paid>('pay', {
      checkoutRequest: sign(request),
      email: 'subscriber@example.com',
      token: await tokenOf('4242424242424242'),
    });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);

    const buy = () =>
      call<{ subscription: Subscription }>('cross-sale-purchases', {
        checkoutRequest: sign(request),
        session: paid.body.session,
        offerId,
      });
    const bought = await buy();
    expect(bought.status, JSON.stringify(bought.body)).to.equal(200);
    expect(bought.body).to.not.have.property('charge');
    expect(bought.body.subscription).to.include({
      planId,
      customerId: paid.body.customer.id,
      status: 'active',
      captureCharges: true,
    });
    expect((await buy()).body.subscription.id).to.equal(bought.body.subscription.id);
    expect((await subscriptionsOf(paid.body.customer.id)).map((listed) => listed.id)).to.deep.equal([
      bought.body.subscription.id,
    ]);
    // Its first charge is the plan's, on the card that paid the checkout.
    const charges = (
      await api.get<Page<Charge>>('/charges', { query: { customerId: paid.body.customer.id, limit: '10' } })
    ).body.list;
    expect(charges.map((charge) => [charge.amount, charge.card.last4])).to.have.deep.members([
      [2000, '4242'],
      [999, '4242'],
    ]);
  });

  it('refuses a card whose issuer demands 3-D Secure after a completed challenge, also with a trial: no subscription', async () => {
    for (const trialPeriodDays of [undefined, 7]) {
      const { offerId } = await subscriptionOffer({
        amount: 1_100,
        name: 'Guarded',
        ...(trialPeriodDays ? { trialPeriodDays } : {}),
      });
      const request = {
        charge: { amount: 2100, currency: 'EUR' },
        threeDSecure: { enable: true },
        crossSaleOfferIds: [offerId],
      };
      const paid = await call<Paid>('pay', {
        checkoutRequest: sign(request),
        email: 'guarded@example.com',
        token: await authenticatedToken(2100),
      });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      const bought = await call<ApiError>('cross-sale-purchases', {
        checkoutRequest: sign(request),
        session: paid.body.session,
        offerId,
      });
      expect(bought.status, JSON.stringify(bought.body)).to.equal(402);
      expect(bought.body.error).to.include({
        type: 'card_error',
        code: 'authentication_required',
        message: 'The card requires 3-D Secure authentication.',
      });
      expect(await subscriptionsOf(paid.body.customer.id)).to.deep.equal([]);
    }
  });

  it('does not show an offer whose plan was deleted: a checkout naming it is refused', async () => {
    const { offerId, planId } = await subscriptionOffer({ amount: 500, name: 'Short-lived' });
    expect((await api.delete(`/plans/${planId}`)).status).to.equal(200);
    const request = { charge: { amount: 2000, currency: 'EUR' }, crossSaleOfferIds: [offerId] };
    const paid = await call<ApiError>('pay', {
      checkoutRequest: sign(request),
      email: 'late@example.com',
      token: await tokenOf('4242424242424242'),
    });
    expect(paid.status).to.equal(400);
    expect(paid.body.error).to.include({ type: 'invalid_request', param: 'crossSaleOfferIds' });
  });
});
