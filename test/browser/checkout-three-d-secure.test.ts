import { expect } from 'chai';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { overlayFrame, tick, TYPED_CARD_NUMBERS, useHostedCheckout } from '../support/hosted-checkout.ts';
import { type Charge } from '../support/payments.ts';
import { createPlan } from '../support/subscriptions.ts';

/**
 * 3-D Secure in the hosted checkout, in headless Chromium: the issuer's challenge opens inside the
 * checkout frame; completed, failed or left, for charges, custom amounts and subscriptions.
 */
describe('hosted checkout in a browser: 3-D Secure challenges', function () {
  this.timeout(120_000);
  const { api, service, shots, openCheckout, fieldOf, typeCard, callbackResult, successShown } = useHostedCheckout();

  it("3-D Secure challenge inside checkout: the issuer's page opens in the checkout frame, the charge shifts liability", async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 2500, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).waitFor();
    await typeCard(page, checkout, '4000000000003220');
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).click();
    const challenge = overlayFrame(checkout);
    await challenge.getByLabel('One-time code').fill('123456');
    expect(await challenge.locator('main').textContent())
      .to.include('25.00 EUR')
      .and.include('•••• 3220');
    await page.screenshot({ path: join(shots, 'checkout-three-d-secure.png') });
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    const charge = (await api.get<Charge>(`/charges/${result.charge!.id}`)).body;
    expect(charge.threeDSecureInfo).to.include({ liabilityShift: 'successful', authenticationFlow: 'challenge' });
    await page.close();
  });

  /** The charges of the amount made with the challenge card, as the API shows them with the secret key. */
  async function chargesOf(amount: number): Promise<Charge[]> {
    const page = await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } });
    return page.body.list.filter((charge) => charge.amount === amount && charge.card?.last4 === '3220');
  }

  /** On a failure, what the page's console and the service's log said explain it. */
  function explanation(consoleLines: string[]): string {
    const serviceErrors = service
      .output()
      .split('\n')
      .filter((line) => /"level":"(warn|error)"|"status":[45]\d\d/.test(line));
    return [...consoleLines, ...serviceErrors].join('\n');
  }

  /** Types the challenge card, pays, and fails the issuer's challenge; the page says so. */
  async function failAuthentication(page: Page, checkout: FrameLocator, payLabel: string): Promise<void> {
    await checkout.getByRole('button', { name: payLabel }).waitFor();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    await typeCard(page, checkout, '4000000000003220');
    await checkout.getByRole('button', { name: payLabel }).click();
    const challenge = overlayFrame(checkout);
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent(), explanation(consoleLines)).to.match(
      /authentication failed/i,
    );
    expect(await checkout.locator('#success-step').isVisible()).to.equal(false);
    expect(await page.locator('#result').getAttribute('data-status')).to.equal(null);
  }

  it('3-D Secure failed in checkout: "authentication failed", nothing charged; trying again pays', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1999, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    await failAuthentication(page, checkout, 'Pay 19.99 EUR');
    await page.screenshot({ path: join(shots, 'checkout-three-d-secure-failed.png') });
    expect((await chargesOf(1999)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);

    // The same card again: a new challenge, completed this time.
    await checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).click();
    const challenge = overlayFrame(checkout);
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Payment successful');
    const charge = (await api.get<Charge>(`/charges/${result.charge!.id}`)).body;
    expect(charge).to.include({ status: 'successful', amount: 1999 });
    expect(charge.threeDSecureInfo).to.include({ liabilityShift: 'successful' });
    await page.close();
  });

  it('3-D Secure failed for a custom amount: nothing charged; another card pays', async () => {
    const { page, checkout } = await openCheckout(
      { customCharge: { currency: 'EUR', amountOptions: [1111, 2222] }, threeDSecure: { enable: true } },
      { email: 'alan@example.com' },
    );
    await checkout.getByRole('button', { name: '11.11 EUR', exact: true }).click();
    await failAuthentication(page, checkout, 'Pay 11.11 EUR');
    expect((await chargesOf(1111)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);
    await fieldOf(checkout, 'number').fill('');
    await fieldOf(checkout, 'number').pressSequentially('4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 11.11 EUR' }).click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 1111, status: 'successful' });
    expect(result.charge!.card).to.include({ last4: '4242' });
    await page.close();
  });

  /** The subscriptions to the plan, as the API shows them with the secret key. */
  async function subscriptionsTo(planId: string): Promise<Array<{ planId: string }>> {
    const subscriptions = await api.get<{ list: Array<{ planId: string }> }>('/subscriptions', {
      query: { limit: '100' },
    });
    return subscriptions.body.list.filter((each) => each.planId === planId);
  }

  /** The customers with the email, as the API shows them with the secret key. */
  async function customersWith(email: string): Promise<unknown[]> {
    const customers = await api.get<{ list: Array<{ email: string | null }> }>('/customers', {
      query: { limit: '100' },
    });
    return customers.body.list.filter((customer) => customer.email === email);
  }

  for (const [trial, amount] of [
    ['without a trial', 1333],
    ['with a trial', 1335],
  ] as const) {
    it(`3-D Secure failed for a subscription ${trial}: no subscription, customer or charge; another card subscribes`, async () => {
      const plan = await createPlan(api, {
        name: 'Silver',
        amount,
        interval: 'month',
        ...(trial === 'with a trial' ? { trialPeriodDays: 14 } : {}),
      });
      const email = `grace.${amount}@example.com`;
      const { page, checkout } = await openCheckout(
        { subscription: { planId: plan.id }, threeDSecure: { enable: true } },
        { email },
      );
      const subscribe = `Subscribe for ${(amount / 100).toFixed(2)} EUR / month`;
      await failAuthentication(page, checkout, subscribe);
      expect(await subscriptionsTo(plan.id)).to.deep.equal([]);
      expect(await customersWith(email)).to.deep.equal([]);
      expect(await chargesOf(amount)).to.deep.equal([]);
      await fieldOf(checkout, 'number').fill('');
      await fieldOf(checkout, 'number').pressSequentially('4242424242424242');
      await checkout.getByRole('button', { name: subscribe }).click();
      const result = await callbackResult(page);
      expect(result.subscription).to.include({ planId: plan.id });
      await page.close();
    });
  }

  it('3-D Secure failed: no offer is shown and the card is not remembered; a payment method still pays', async () => {
    const offer = await api.post<{ id: string }>('/cross-sale-offers', {
      json: { charge: { amount: 321, currency: 'EUR' }, template: 'text_only', title: 'Gift wrapping' },
    });
    expect(offer.status, JSON.stringify(offer.body)).to.equal(200);
    const email = 'failed.then.ideal@example.com';
    const request = {
      charge: { amount: 2121, currency: 'EUR' },
      threeDSecure: { enable: true },
      rememberMe: true,
      crossSaleOfferIds: [offer.body.id],
      paymentMethodTypes: ['ideal'],
    };
    const { page, checkout } = await openCheckout(request, { email });
    await checkout.getByRole('button', { name: 'Pay 21.21 EUR' }).waitFor();
    // The payer ticks the box once the form has stopped moving: the card fields in place.
    for (const field of ['number', 'expiry', 'cvc']) await fieldOf(checkout, field).waitFor();
    await tick(checkout.getByLabel('Remember me'));
    await failAuthentication(page, checkout, 'Pay 21.21 EUR');
    expect(await checkout.getByRole('heading', { name: 'You may also like' }).isVisible()).to.equal(false);
    expect(await checkout.getByRole('button', { name: 'Buy for 3.21 EUR' }).isVisible()).to.equal(false);
    expect((await chargesOf(2121)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);

    // The payer chooses iDEAL instead and authorizes at the provider's page.
    const popupOpened = page.context().waitForEvent('page');
    await checkout.getByRole('button', { name: 'Pay with iDEAL' }).click();
    await (await popupOpened).getByRole('button', { name: 'Authorize', exact: true }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(result.charge).to.include({ amount: 2121, status: 'successful' });
    expect((await api.get<Charge>(`/charges/${result.charge!.id}`)).body).to.include({ status: 'successful' });
    await page.close();

    // The card whose authentication failed was not remembered: no code is given for the email.
    const again = await openCheckout(request, { email });
    await again.checkout.getByRole('button', { name: 'Use my saved card' }).click();
    await again.checkout.locator('#code-sent:not(:empty)').waitFor();
    expect(await again.checkout.locator('#test-code').isVisible()).to.equal(false);
    await again.page.close();
  });

  it('3-D Secure completed for the payment: the challenge card buys no offer (a charge or a subscription with a trial) without authenticating for it', async () => {
    const chargeOffer = await api.post<{ id: string }>('/cross-sale-offers', {
      json: { charge: { amount: 322, currency: 'EUR' }, template: 'text_only', title: 'Extended warranty' },
    });
    expect(chargeOffer.status, JSON.stringify(chargeOffer.body)).to.equal(200);
    const plan = await createPlan(api, { name: 'Support', amount: 555, interval: 'month', trialPeriodDays: 7 });
    const subscriptionOffer = await api.post<{ id: string }>('/cross-sale-offers', {
      json: { subscription: { planId: plan.id }, template: 'text_only', title: 'Premium support' },
    });
    expect(subscriptionOffer.status, JSON.stringify(subscriptionOffer.body)).to.equal(200);
    const email = 'offers.after.challenge@example.com';
    const { page, checkout } = await openCheckout(
      {
        charge: { amount: 2323, currency: 'EUR' },
        threeDSecure: { enable: true },
        crossSaleOfferIds: [chargeOffer.body.id, subscriptionOffer.body.id],
      },
      { email },
    );
    const pay = checkout.getByRole('button', { name: 'Pay 23.23 EUR' });
    await pay.waitFor();
    await typeCard(page, checkout, '4000000000003220');
    await pay.click();
    const challenge = overlayFrame(checkout);
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const paid = await callbackResult(page);
    await successShown(checkout);
    expect(paid.charge).to.include({ amount: 2323, status: 'successful' });

    for (const [offerId, button] of [
      [chargeOffer.body.id, 'Buy for 3.22 EUR'],
      [subscriptionOffer.body.id, 'Subscribe for 5.55 EUR / month'],
    ] as const) {
      const item = checkout.locator(`.offer[data-offer-id="${offerId}"]`);
      await item.getByRole('button', { name: button }).click();
      await item.locator('.offer-outcome[data-status=failed]').waitFor();
      expect(await item.locator('.offer-outcome').textContent()).to.equal(
        'Not bought: this offer needs your card to be authenticated, which it was not for this purchase. Nothing was charged.',
      );
    }
    expect((await chargesOf(322)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);
    expect(await subscriptionsTo(plan.id)).to.deep.equal([]);
    expect(await checkout.locator('#receipt').textContent()).not.to.include('Premium support');
    await page.close();
  });

  it('3-D Secure challenge completed for a subscription: subscribed, the first payment charged with liability shifted', async () => {
    const plan = await createPlan(api, { name: 'Bronze', amount: 1444, interval: 'month' });
    const { page, checkout } = await openCheckout(
      { subscription: { planId: plan.id }, threeDSecure: { enable: true } },
      { email: 'barbara@example.com' },
    );
    const subscribe = checkout.getByRole('button', { name: 'Subscribe for 14.44 EUR / month' });
    await subscribe.waitFor();
    await typeCard(page, checkout, '4000000000003220');
    await subscribe.click();
    const challenge = overlayFrame(checkout);
    await challenge.getByLabel('One-time code').fill('123456');
    expect(await challenge.locator('main').textContent()).to.include('14.44 EUR');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Subscription started');
    expect(result.subscription).to.include({ planId: plan.id, status: 'active' });
    const [first] = await chargesOf(1444);
    expect(first).to.include({ status: 'successful', customerId: result.customer.id });
    expect(first!.threeDSecureInfo).to.include({ liabilityShift: 'successful', authenticationFlow: 'challenge' });
    await page.close();
  });

  it('3-D Secure left in checkout (Escape, its close button): nothing charged, checkout stays, focus back in the form', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1234, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    const pay = checkout.getByRole('button', { name: 'Pay 12.34 EUR' });
    await pay.waitFor();
    await typeCard(page, checkout, '4000000000003220');
    const challenge = overlayFrame(checkout);
    const checkoutClose = page.getByRole('button', { name: 'Close checkout' });
    const challengeClose = checkout.getByRole('button', { name: 'Cancel authentication' });

    // Escape typed in the issuer's page leaves the challenge, not checkout.
    await pay.click();
    await challenge.getByLabel('One-time code').click();
    await page.keyboard.press('Escape');
    await checkout.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await checkout.locator('#form-error').textContent()).to.match(/authentication was cancelled/i);
    expect(await page.getByRole('dialog', { name: 'Checkout' }).count()).to.equal(1);
    // The Pay button was disabled while paying: the focus is back on the form's first field.
    await checkout.locator('#email:focus').waitFor();
    await checkoutClose.waitFor({ state: 'visible' });

    // The challenge's own close button, above the issuer's page; checkout's is hidden meanwhile.
    await pay.click();
    await challengeClose.waitFor();
    expect(await checkoutClose.isVisible()).to.equal(false);
    // Its close button sits above the issuer's page, not on it.
    const closeBox = (await challengeClose.boundingBox())!;
    const issuerBox = (await checkout.locator('[data-shift4-overlay] iframe').boundingBox())!;
    expect(closeBox.y + closeBox.height).to.be.at.most(issuerBox.y);
    await challengeClose.click();
    await checkout.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await checkout.locator('#form-error').textContent()).to.match(/authentication was cancelled/i);
    await checkout.locator('#email:focus').waitFor();
    await checkoutClose.waitFor({ state: 'visible' });
    expect(await chargesOf(1234)).to.deep.equal([]);
    await page.close();
  });

  it('a remembered card in a checkout that asks for 3-D Secure: an issuer that does not authenticate it is refused, another card pays; a subscription does not offer it', async () => {
    // Remembered in a checkout that did not ask for 3-D Secure: the issuer refuses to authenticate this card.
    const email = 'remembered.unauthenticated@example.com';
    const first = await openCheckout({ charge: { amount: 1500, currency: 'EUR' }, rememberMe: true }, { email });
    await first.checkout.getByRole('button', { name: 'Pay 15.00 EUR' }).waitFor();
    await typeCard(first.page, first.checkout, '4000000000003238');
    await tick(first.checkout.getByLabel('Remember me'));
    await first.checkout.getByRole('button', { name: 'Pay 15.00 EUR' }).click();
    await successShown(first.checkout);
    await first.page.close();

    const { page, checkout } = await openCheckout(
      { charge: { amount: 1600, currency: 'EUR' }, rememberMe: true, threeDSecure: { enable: true } },
      { email },
    );
    await checkout.getByRole('button', { name: 'Use my saved card' }).click();
    const testCode = checkout.locator('#test-code');
    await testCode.waitFor();
    const code = /(\d{6})/.exec((await testCode.textContent()) ?? '')?.[1];
    await checkout.getByLabel('One-time code').fill(code!);
    await checkout.getByRole('button', { name: 'Confirm' }).click();
    await checkout.locator('#using-saved-card').waitFor({ state: 'visible' });
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    await checkout.getByRole('button', { name: 'Pay 16.00 EUR' }).click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent(), explanation(consoleLines)).to.equal(
      'Card authentication failed. Try again, or use another card.',
    );
    expect(await checkout.locator('#success-step').isVisible()).to.equal(false);
    const charges = await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } });
    expect(
      charges.body.list.filter((charge) => charge.amount === 1600 && charge.status === 'successful'),
    ).to.deep.equal([]);
    await checkout.getByRole('button', { name: 'Use another card' }).click();
    await typeCard(page, checkout, '4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 16.00 EUR' }).click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 1600, status: 'successful' });
    expect(result.charge!.card).to.include({ last4: '4242' });
    await page.close();

    // A subscription that asks for 3-D Secure offers to remember the card, not to pay with a remembered one.
    const plan = await createPlan(api, { name: 'Remembered', amount: 1666, interval: 'month' });
    const subscription = await openCheckout(
      { subscription: { planId: plan.id }, rememberMe: true, threeDSecure: { enable: true } },
      { email },
    );
    await subscription.checkout.getByLabel('Remember me').waitFor();
    expect(await subscription.checkout.getByRole('button', { name: 'Use my saved card' }).count()).to.equal(0);
    await subscription.page.close();
  });

  it("never writes a typed card number to the service's logs", () => {
    const logs = service.output();
    for (const number of TYPED_CARD_NUMBERS) expect(logs).not.to.include(number);
  });
});
