import { expect } from 'chai';
import { CATALOGS } from '../../../packages/client-side/i18n/index.ts';
import type { CheckoutPageInput, CheckoutView } from '../../../packages/checkout/checkout-view.ts';
import { checkoutErrorPage, checkoutPage } from '../../../services/api/checkout/checkout-document.ts';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

function view(extra: Partial<CheckoutView> = {}): CheckoutView {
  return {
    publicKey: 'pk_test_abc',
    mode: 'test',
    checkoutRequest: 'c2lnfHt9',
    merchant: { accountId: 'acct_1', name: HOSTILE },
    kind: 'charge',
    charge: { amount: 1999, currency: 'EUR' },
    subscription: null,
    customCharge: null,
    customer: null,
    rememberMe: false,
    rememberedCards: false,
    threeDSecure: { enable: false, requireEnrolledCard: false, requireSuccessfulLiabilityShiftForEnrolledCard: false },
    termsAndConditionsUrl: null,
    paymentMethodTypes: [],
    crossSaleOffers: [],
    ...extra,
  };
}

const input = (extra: Partial<CheckoutView> = {}, display: Partial<CheckoutPageInput['display']> = {}) => ({
  view: view(extra),
  display: {
    name: null,
    description: null,
    email: null,
    image: null,
    billingAddress: false,
    shippingAddress: false,
    ...display,
  },
  countries: [],
  ancestorOrigin: 'https://shop.example',
  locale: 'en' as const,
  messages: CATALOGS.en,
});

/** The view the page's script reads back from the embedded JSON. */
function embedded(html: string): unknown {
  const match = /<script type="application\/json" id="checkout-view">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match![1]!);
}

describe('checkout page', () => {
  it('escapes everything the merchant and the payer choose, in the text and in the embedded view', () => {
    const page = checkoutPage(
      input(
        {
          crossSaleOffers: [
            {
              id: 'cso_1',
              accountId: 'acct_2',
              template: 'text_only',
              title: HOSTILE,
              description: HOSTILE,
              imageUrl: null,
              charge: { amount: 499, currency: 'EUR' },
              subscription: null,
              companyName: HOSTILE,
              companyLocation: 'GB',
              termsAndConditionsUrl: 'https://example.com/?a="b"',
            },
          ],
        },
        { description: HOSTILE, email: HOSTILE },
      ),
    );
    expect(page).not.to.include('<script>alert').and.not.to.include('<img src=x');
    expect(page.match(/<script/g)).to.have.length(2);
    expect(page).to.include('&lt;/script&gt;&lt;script&gt;alert(1)');
    expect(page).to.include('href="https://example.com/?a=&quot;b&quot;"');
    const parsed = embedded(page) as CheckoutPageInput;
    expect(parsed.view.merchant.name).to.equal(HOSTILE);
    expect(parsed.display.description).to.equal(HOSTILE);
  });

  it('shows the amount on the pay button; a subscription its price per interval and trial', () => {
    expect(checkoutPage(input())).to.include('>Pay 19.99 EUR</button>');
    const plan: NonNullable<CheckoutView['subscription']> = {
      planId: 'plan_1',
      name: 'Gold',
      amount: 1500,
      currency: 'EUR',
      interval: 'month',
      intervalCount: 3,
      trialPeriodDays: 14,
    };
    const page = checkoutPage(input({ kind: 'subscription', charge: null, subscription: plan }));
    expect(page).to.include('Subscribe for 15.00 EUR every 3 months').and.include('14-day free trial');
    // Interval words and their plural forms in the payer's language.
    const polish = (subscription: typeof plan) =>
      checkoutPage({
        ...input({ kind: 'subscription', charge: null, subscription }),
        locale: 'pl',
        messages: CATALOGS.pl,
      });
    expect(polish(plan)).to.include('Subskrybuj za 15,00 EUR co 3 miesiące').and.include('okres próbny: 14 dni.');
    expect(polish({ ...plan, intervalCount: 5, trialPeriodDays: 1 }))
      .to.include('co 5 miesięcy')
      .and.include('okres próbny: 1 dzień.');
    expect(polish({ ...plan, interval: 'year', intervalCount: 1, trialPeriodDays: null })).to.include(
      'Subskrybuj za 15,00 EUR / rok',
    );
  });

  it('shows a subscription offer with its plan’s price per interval, its trial and a Subscribe button', () => {
    const offer = {
      id: 'cso_1',
      accountId: 'acct_2',
      template: 'text_only' as const,
      title: 'Magazine',
      description: null,
      imageUrl: null,
      charge: null,
      subscription: {
        planId: 'plan_2',
        name: 'Magazine',
        amount: 1500,
        currency: 'EUR',
        interval: 'month' as const,
        intervalCount: 1,
        trialPeriodDays: 14,
      },
      companyName: null,
      companyLocation: null,
      termsAndConditionsUrl: null,
    };
    const page = checkoutPage({ ...input({ crossSaleOffers: [offer] }), locale: 'de', messages: CATALOGS.de });
    expect(page).to.include('data-kind="subscription" data-price="15,00 EUR / Monat" data-trial-days="14"');
    expect(page).to.include('<p class="offer-price">15,00 EUR / Monat</p>');
    expect(page).to.include('<p class="offer-trial">14 Tage kostenlos testen: die erste Zahlung folgt danach.</p>');
    expect(page).to.include('>Für 15,00 EUR / Monat abonnieren</button>');
  });

  it('offers custom amounts as toggle buttons and a bounded input in major units', () => {
    const page = checkoutPage(
      input({
        kind: 'customCharge',
        charge: null,
        customCharge: { currency: 'JPY', amountOptions: [500, 1000], customAmount: { min: 100, max: 90000 } },
      }),
    );
    expect(page).to.include('aria-pressed="false" data-amount="500" disabled>500 JPY</button>');
    expect(page).to.include('From 100 JPY to 90,000 JPY');
  });

  it('asks for the email unless the request names a customer, and prefills it', () => {
    expect(checkoutPage(input())).to.match(/id="email"[^>]* required/);
    const known = checkoutPage(input({ customer: { id: 'cust_1', email: 'ada@example.com' } }));
    expect(known).not.to.match(/id="email"[^>]* required/);
    expect(known).to.include('value="ada@example.com"');
  });

  it("error page: a plain sentence for the payer, the details only in the page's data, escaped; the close button", () => {
    const page = checkoutErrorPage(400, { type: 'invalid_request', message: HOSTILE });
    expect(page).not.to.include('<script>alert');
    expect(page).to.include('This payment link is not valid. Please go back to the shop.');
    expect(page).to.include('id="done"').and.include('/js/checkout/checkout-page.js');
    expect(checkoutErrorPage(503, { type: 'api_error', message: 'x' })).to.include('Please try again later.');
  });
});
