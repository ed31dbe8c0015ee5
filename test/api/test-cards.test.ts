import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.ts';
import {
  cardDetails,
  cardForm,
  FUTURE_YEAR,
  type ApiError,
  type Card,
  type Charge,
  type Customer,
  type Refund,
} from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

/** The test-card table of docs/payments.md, row by row, through POST /charges with card details. */
describe('test cards of the card network simulator (docs/payments.md)', function () {
  this.timeout(60_000);
  const { api } = useService();

  const charge = (card: Record<string, string>, extra: Record<string, unknown> = {}) =>
    api.post<Charge & ApiError>('/charges', { json: { amount: 1000, currency: 'EUR', card, ...extra } });

  async function expectSuccess(response: ApiResponse<Charge & ApiError>): Promise<Charge> {
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body).to.include({
      objectType: 'charge',
      status: 'successful',
      amount: 1000,
      currency: 'EUR',
      captured: true,
      refunded: false,
    });
    expect(response.body).to.not.have.any.keys('failureCode', 'failureMessage');
    const read = await api.get<Charge>(`/charges/${response.body.id}`);
    expect(read.body).to.deep.equal(response.body);
    return response.body;
  }

  /** A decline: 402 card_error with the code and the charge id; the charge is recorded as failed. */
  async function expectDecline(
    response: ApiResponse<Charge & ApiError>,
    code: string,
    issuerDeclineCode: string | null,
  ): Promise<Charge> {
    expect(response.status, JSON.stringify(response.body)).to.equal(402);
    const { error } = response.body;
    expect(error).to.include({ type: 'card_error', code });
    expect(error.message).to.be.a('string').with.length.greaterThan(0);
    expect(error.chargeId).to.match(/^char_/);
    if (issuerDeclineCode === null) expect(error).to.not.have.property('issuerDeclineCode');
    else expect(error.issuerDeclineCode).to.equal(issuerDeclineCode);
    const read = await api.get<Charge>(`/charges/${error.chargeId}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.include({
      id: error.chargeId,
      status: 'failed',
      failureCode: code,
      failureMessage: error.message,
      captured: false,
      amount: 1000,
    });
    expect(read.body.failureIssuerDeclineCode ?? null).to.equal(issuerDeclineCode);
    return read.body;
  }

  /** A card rejected before the network: 402 with the code, and no charge is recorded. */
  async function expectInvalid(response: ApiResponse<Charge & ApiError>, code: string): Promise<void> {
    expect(response.status, JSON.stringify(response.body)).to.equal(402);
    expect(response.body.error).to.include({ type: 'card_error', code });
    expect(response.body.error).to.not.have.property('chargeId');
  }

  describe('successful cards: brand, type, country and issuer on the charge card', () => {
    const rows: [string, string, string, string, string][] = [
      ['4242424242424242', 'Visa', 'Credit Card', 'US', 'Visa Test Bank'],
      ['4000056655665556', 'Visa', 'Debit Card', 'GB', 'Visa Test Debit Bank'],
      ['4000000000000077', 'Visa', 'Prepaid Card', 'US', 'Visa Test Prepaid Bank'],
      ['5555555555554444', 'MasterCard', 'Credit Card', 'US', 'Mastercard Test Bank'],
      ['5200828282828210', 'MasterCard', 'Debit Card', 'PL', 'Mastercard Test Debit Bank'],
      ['378282246310005', 'American Express', 'Credit Card', 'US', 'American Express Test Bank'],
      ['6011111111111117', 'Discover', 'Credit Card', 'US', 'Discover Test Bank'],
      ['3566002020360505', 'JCB', 'Credit Card', 'JP', 'JCB Test Bank'],
      ['30569309025904', 'Diners Club', 'Credit Card', 'US', 'Diners Club Test Bank'],
      ['6759649826438453', 'Maestro', 'Debit Card', 'GB', 'Maestro Test Bank'],
    ];
    for (const [number, brand, type, country, issuer] of rows) {
      it(`${number}: ${brand} ${type} succeeds`, async () => {
        const created = await expectSuccess(await charge(cardDetails(number)));
        expect(created.card).to.include({
          brand,
          type,
          country,
          issuer,
          first6: number.slice(0, 6),
          last4: number.slice(-4),
          expMonth: '12',
          expYear: FUTURE_YEAR,
        });
        expect(created.card.id).to.match(/^card_/);
        expect(created.fraudDetails.status).to.equal('safe');
        expect(created.avsCheck).to.deep.equal({ result: 'not_provided' });
      });
    }

    it('a Luhn-valid number outside the table succeeds with type, country and issuer unknown', async () => {
      const created = await expectSuccess(await charge(cardDetails('4111111111111111')));
      expect(created.card).to.include({ brand: 'Visa', type: 'Unknown', country: null, issuer: null });
    });
  });

  describe('declines: 402 card_error with chargeId, and a failed charge', () => {
    const rows: [string, string, string | null][] = [
      ['4000000000000002', 'card_declined', '05'],
      ['4000000000009995', 'insufficient_funds', '51'],
      ['4000000000009987', 'lost_or_stolen', '43'],
      ['4000000000000069', 'expired_card', '54'],
      ['4000000000000127', 'incorrect_cvc', 'N7'],
      ['4000000000000119', 'processing_error', null],
      ['4000000000000010', 'do_not_try_again', 'R1'],
      ['4000000000000044', 'limit_exceeded', '61'],
    ];
    for (const [number, code, issuerDeclineCode] of rows) {
      it(`${number}: ${code}${issuerDeclineCode ? ` (issuer ${issuerDeclineCode})` : ''}`, async () => {
        const failed = await expectDecline(await charge(cardDetails(number)), code, issuerDeclineCode);
        expect(failed.card).to.include({ last4: number.slice(-4), brand: 'Visa' });
        expect(failed.refunds).to.deep.equal([]);
      });
    }
  });

  describe('4000000000000036: AVS', () => {
    it('declines incorrect_zip with AVS no_match when a billing zip is given', async () => {
      const failed = await expectDecline(
        await charge(cardDetails('4000000000000036'), { billing: { address: { zip: '10001' } } }),
        'incorrect_zip',
        null,
      );
      expect(failed.avsCheck).to.deep.equal({ result: 'no_match' });
    });

    it('declines incorrect_zip when the zip is the card addressZip (form body)', async () => {
      const response = await api.post<Charge & ApiError>('/charges', {
        form: { amount: '1000', currency: 'EUR', ...cardForm('card', '4000000000000036', { addressZip: '10001' }) },
      });
      const failed = await expectDecline(response, 'incorrect_zip', null);
      expect(failed.avsCheck).to.deep.equal({ result: 'no_match' });
      expect(failed.card.addressZip).to.equal('10001');
    });

    it('succeeds without a zip', async () => {
      const created = await expectSuccess(await charge(cardDetails('4000000000000036')));
      expect(created.avsCheck).to.deep.equal({ result: 'not_provided' });
    });

    it('another card with a zip gets AVS full_match', async () => {
      const created = await expectSuccess(
        await charge(cardDetails('4242424242424242'), { billing: { address: { zip: '10001' } } }),
      );
      expect(created.avsCheck).to.deep.equal({ result: 'full_match' });
    });
  });

  it('4100000000000019: blocked suspected_fraud, fraudDetails fraudulent', async () => {
    const failed = await expectDecline(await charge(cardDetails('4100000000000019')), 'suspected_fraud', null);
    expect(failed.fraudDetails.status).to.equal('fraudulent');
    expect(failed.fraudDetails.score).to.be.within(90, 100);
  });

  it('4000000000000341: can be saved to a customer, but every charge on it declines card_declined', async () => {
    const customer = (await api.post<Customer>('/customers', { json: { email: 'saved-decline@example.com' } })).body;
    const saved = await api.post<Card>(`/customers/${customer.id}/cards`, { json: cardDetails('4000000000000341') });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body).to.include({ last4: '0341', customerId: customer.id });
    expect((await api.get<Customer>(`/customers/${customer.id}`)).body.defaultCardId).to.equal(saved.body.id);

    const byDefault = await expectDecline(
      await api.post<Charge & ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', customerId: customer.id },
      }),
      'card_declined',
      '05',
    );
    expect(byDefault.card.id).to.equal(saved.body.id);
    expect(byDefault.customerId).to.equal(customer.id);
    const byId = await api.post<Charge & ApiError>('/charges', {
      json: { amount: 1000, currency: 'EUR', customerId: customer.id, card: saved.body.id },
    });
    await expectDecline(byId, 'card_declined', '05');
  });

  describe('3-D Secure', () => {
    const external = {
      version: '2.2.0',
      eci: '05',
      authenticationValue: 'AAABBBCCC',
      dsTransactionId: 'ds-1',
      acsTransactionId: 'acs-1',
    };

    it('4000000000003220 without 3-D Secure: authentication_required', async () => {
      const failed = await expectDecline(
        await charge(cardDetails('4000000000003220')),
        'authentication_required',
        '1A',
      );
      expect(failed.threeDSecureInfo).to.equal(null);
    });

    it('4000000000003220 with a successful external 3-D Secure (status Y): succeeds with liability shift', async () => {
      const created = await expectSuccess(
        await charge(cardDetails('4000000000003220'), { threeDSecure: { external: { ...external, status: 'Y' } } }),
      );
      expect(created.threeDSecureInfo).to.deep.equal({
        amount: 1000,
        currency: 'EUR',
        enrolled: true,
        liabilityShift: 'successful',
        authenticationFlow: 'challenge',
        version: '2.2.0',
      });
    });

    it('4000000000003220 with a failed external 3-D Secure (status N): authentication_required, liabilityShift failed', async () => {
      const failed = await expectDecline(
        await charge(cardDetails('4000000000003220'), { threeDSecure: { external: { ...external, status: 'N' } } }),
        'authentication_required',
        null,
      );
      expect(failed.threeDSecureInfo).to.include({ enrolled: true, liabilityShift: 'failed' });
    });

    it('4000000000003063 with requireAttempt: frictionless success', async () => {
      const response = await api.post<Charge & ApiError>('/charges', {
        form: {
          amount: '1000',
          currency: 'EUR',
          ...cardForm('card', '4000000000003063'),
          'threeDSecure[requireAttempt]': 'true',
        },
      });
      const created = await expectSuccess(response);
      expect(created.threeDSecureInfo).to.deep.equal({
        amount: 1000,
        currency: 'EUR',
        enrolled: true,
        liabilityShift: 'successful',
        authenticationFlow: 'frictionless',
        version: '2.2.0',
      });
    });

    it('4000000000003089 with requireEnrolledCard: authentication_required, liabilityShift not_possible', async () => {
      const failed = await expectDecline(
        await charge(cardDetails('4000000000003089'), { threeDSecure: { requireEnrolledCard: true } }),
        'authentication_required',
        null,
      );
      expect(failed.threeDSecureInfo).to.include({ enrolled: false, liabilityShift: 'not_possible' });
    });

    it('4000000000003089 without requirements: succeeds, liabilityShift not_possible', async () => {
      const created = await expectSuccess(
        await charge(cardDetails('4000000000003089'), { threeDSecure: { requireAttempt: false } }),
      );
      expect(created.threeDSecureInfo).to.include({ enrolled: false, liabilityShift: 'not_possible' });
    });
  });

  it('4000000000000101: the charge succeeds, its refund ends failed and does not count as refunded', async () => {
    const created = await expectSuccess(await charge(cardDetails('4000000000000101')));
    const refund = await api.post<Refund>('/refunds', { json: { chargeId: created.id, amount: 1000 } });
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    expect(refund.body).to.include({ objectType: 'refund', status: 'failed', amount: 1000, charge: created.id });

    const afterFirst = (await api.get<Charge>(`/charges/${created.id}`)).body;
    expect(afterFirst.refunded).to.equal(false);
    expect(afterFirst.refunds.map((entry) => [entry.id, entry.status])).to.deep.equal([[refund.body.id, 'failed']]);

    // A failed refund reserved nothing: the full amount can be refunded (and fails) again.
    const again = await api.post<Charge>(`/charges/${created.id}/refund`, { json: { amount: 1000 } });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.refunded).to.equal(false);
    expect(again.body.refunds.map((entry) => entry.status)).to.deep.equal(['failed', 'failed']);
  });

  it('4242000000000018: the charge succeeds', async () => {
    await expectSuccess(await charge(cardDetails('4242000000000018')));
  });

  it('4242000000000208: the charge succeeds with the fraud verdict still in progress', async () => {
    const created = await expectSuccess(await charge(cardDetails('4242000000000208')));
    expect(created.fraudDetails.status).to.equal('in_progress');
  });

  describe('validation before the network: 402 and no charge', () => {
    it('a number failing the Luhn check: invalid_number', async () => {
      await expectInvalid(await charge(cardDetails('4242424242424241')), 'invalid_number');
      await expectInvalid(await charge(cardDetails('4242-4242-4242-4242')), 'invalid_number');
    });

    it('month 13 or 0: invalid_expiry_month', async () => {
      await expectInvalid(await charge(cardDetails('4242424242424242', { expMonth: '13' })), 'invalid_expiry_month');
      await expectInvalid(await charge(cardDetails('4242424242424242', { expMonth: '0' })), 'invalid_expiry_month');
    });

    it('a malformed year: invalid_expiry_year; a past year: expired_card', async () => {
      await expectInvalid(await charge(cardDetails('4242424242424242', { expYear: 'abc' })), 'invalid_expiry_year');
      await expectInvalid(
        await charge(cardDetails('4242424242424242', { expYear: String(new Date().getUTCFullYear() - 1) })),
        'expired_card',
      );
      await expectInvalid(
        await charge(cardDetails('4242424242424242', { expMonth: '10', expYear: '2025' })),
        'expired_card',
      );
    });

    it('an earlier month of the current year: expired_card', async function () {
      const now = new Date();
      if (now.getUTCMonth() === 0) this.skip();
      await expectInvalid(
        await charge(cardDetails('4242424242424242', { expMonth: '1', expYear: String(now.getUTCFullYear()) })),
        'expired_card',
      );
    });

    it('a two-digit year means 20YY', async () => {
      const created = await expectSuccess(
        await charge(cardDetails('4242424242424242', { expYear: FUTURE_YEAR.slice(2) })),
      );
      expect(created.card.expYear).to.equal(FUTURE_YEAR);
      const thirty = await expectSuccess(await charge(cardDetails('4242424242424242', { expYear: '30' })));
      expect(thirty.card.expYear).to.equal('2030');
    });

    it('a CVC of the wrong length: invalid_cvc (American Express needs 4 digits)', async () => {
      await expectInvalid(await charge(cardDetails('4242424242424242', { cvc: '12' })), 'invalid_cvc');
      await expectInvalid(await charge(cardDetails('4242424242424242', { cvc: '1234' })), 'invalid_cvc');
      await expectInvalid(await charge(cardDetails('378282246310005', { cvc: '123' })), 'invalid_cvc');
      await expectSuccess(await charge(cardDetails('378282246310005', { cvc: '1234' })));
    });
  });
});
