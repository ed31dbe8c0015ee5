import { expect } from 'chai';
import { specCodeOfStripeDecline } from '../../../packages/network/processors/stripe/stripe-declines.ts';

describe("Stripe declines mapped to the spec's card error codes", () => {
  for (const [declineCode, specCode] of [
    ['insufficient_funds', 'insufficient_funds'],
    ['lost_card', 'lost_or_stolen'],
    ['stolen_card', 'lost_or_stolen'],
    ['fraudulent', 'suspected_fraud'],
    ['card_velocity_exceeded', 'limit_exceeded'],
    ['do_not_try_again', 'do_not_try_again'],
    ['expired_card', 'expired_card'],
    ['incorrect_cvc', 'incorrect_cvc'],
    ['processing_error', 'processing_error'],
    ['authentication_required', 'authentication_required'],
    ['currency_not_supported', 'currency_not_supported'],
    ['generic_decline', 'card_declined'],
    ['do_not_honor', 'card_declined'],
  ] as const) {
    it(`decline_code ${declineCode} is ${specCode}`, () => {
      expect(specCodeOfStripeDecline({ code: 'card_declined', decline_code: declineCode })).to.equal(specCode);
    });
  }

  it('takes the card error code when there is no decline code', () => {
    expect(specCodeOfStripeDecline({ code: 'expired_card' })).to.equal('expired_card');
    expect(specCodeOfStripeDecline({ code: 'incorrect_number', decline_code: null })).to.equal('invalid_number');
  });

  it('answers card_declined for a code it does not know, or none', () => {
    expect(specCodeOfStripeDecline({ code: 'card_declined', decline_code: 'a_code_stripe_adds_later' })).to.equal(
      'card_declined',
    );
    expect(specCodeOfStripeDecline({ decline_code: 'constructor' })).to.equal('card_declined');
    expect(specCodeOfStripeDecline({})).to.equal('card_declined');
  });
});
