import { expect } from 'chai';
import { luhnValid, validateCardEntry } from '../../../packages/network/card-validation.ts';
import type { CardEntry } from '../../../packages/network/card-network.ts';

const NOW = new Date('2025-06-15T12:00:00Z');
const valid: CardEntry = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
const codeOf = (entry: Partial<CardEntry>, now = NOW) => validateCardEntry({ ...valid, ...entry }, now)?.code ?? null;

describe('card validation', () => {
  describe('luhnValid', () => {
    for (const good of [
      '4242424242424242',
      '378282246310005',
      '30569309025904',
      '6759649826438453',
      '4000000000000002',
      '79927398713',
    ]) {
      it(`accepts ${good}`, () => expect(luhnValid(good)).to.equal(true));
    }
    for (const bad of [
      '4242424242424241',
      '378282246310006',
      '1234567812345678',
      '79927398710',
      '',
      '4242 4242 4242 4242',
      'abcd',
    ]) {
      it(`rejects '${bad}'`, () => expect(luhnValid(bad)).to.equal(false));
    }
  });

  it('accepts a valid entry', () => expect(validateCardEntry(valid, NOW)).to.equal(null));
  it('accepts an entry without a CVC', () =>
    expect(validateCardEntry({ number: valid.number, expMonth: 1, expYear: 2026 }, NOW)).to.equal(null));

  describe('number', () => {
    it('rejects a number failing Luhn as invalid_number', () =>
      expect(codeOf({ number: '4242424242424241' })).to.equal('invalid_number'));
    it('rejects non-digits', () => expect(codeOf({ number: '4242-4242-4242-4242' })).to.equal('invalid_number'));
    it('rejects spaces', () => expect(codeOf({ number: '4242 4242 4242 4242' })).to.equal('invalid_number'));
    it('rejects an empty number', () => expect(codeOf({ number: '' })).to.equal('invalid_number'));
    it('rejects fewer than 12 digits even when Luhn-valid', () =>
      expect(codeOf({ number: '79927398713' })).to.equal('invalid_number'));
    it('rejects more than 19 digits even when Luhn-valid', () =>
      expect(codeOf({ number: '42424242424242424242' })).to.equal('invalid_number'));
    it('accepts 12 and 19 digit Luhn-valid numbers', () => {
      expect(codeOf({ number: '675964982648' })).to.equal(null);
      expect(codeOf({ number: '4000000000000000006' })).to.equal(null);
    });
    it('checks the number before anything else', () =>
      expect(codeOf({ number: '1', expMonth: 13, cvc: 'x' })).to.equal('invalid_number'));
  });

  describe('expiry month', () => {
    for (const month of [0, 13, -1, 1.5, Number.NaN]) {
      it(`rejects month ${month} as invalid_expiry_month`, () =>
        expect(codeOf({ expMonth: month })).to.equal('invalid_expiry_month'));
    }
    it('accepts 1 and 12', () => {
      expect(codeOf({ expMonth: 1 })).to.equal(null);
      expect(codeOf({ expMonth: 12 })).to.equal(null);
    });
  });

  describe('expiry year', () => {
    it('rejects a two-digit year: turning 25 into 2025 is the caller’s job', () =>
      expect(codeOf({ expYear: 25 })).to.equal('invalid_expiry_year'));
    it('rejects a five-digit year', () => expect(codeOf({ expYear: 20300 })).to.equal('invalid_expiry_year'));
    it('rejects a fractional year', () => expect(codeOf({ expYear: 2030.5 })).to.equal('invalid_expiry_year'));
    it('rejects a year more than 50 years ahead', () =>
      expect(codeOf({ expYear: 2076 })).to.equal('invalid_expiry_year'));
    it('accepts a year exactly 50 years ahead', () => expect(codeOf({ expYear: 2075 })).to.equal(null));
    it('rejects a past year as expired_card', () =>
      expect(codeOf({ expYear: 2024, expMonth: 12 })).to.equal('expired_card'));
    it('rejects an earlier month of the current year as expired_card', () =>
      expect(codeOf({ expYear: 2025, expMonth: 5 })).to.equal('expired_card'));
    it('accepts the current month: a card is valid through its expiry month', () =>
      expect(codeOf({ expYear: 2025, expMonth: 6 })).to.equal(null));
    it('uses the UTC month of now', () => {
      expect(codeOf({ expYear: 2025, expMonth: 6 }, new Date('2025-07-01T00:00:00Z'))).to.equal('expired_card');
      expect(codeOf({ expYear: 2025, expMonth: 6 }, new Date('2025-06-30T23:59:59Z'))).to.equal(null);
    });
    it('checks the month before the year', () =>
      expect(codeOf({ expMonth: 13, expYear: 25 })).to.equal('invalid_expiry_month'));
  });

  describe('CVC', () => {
    it('accepts 3 digits for Visa', () => expect(codeOf({ cvc: '000' })).to.equal(null));
    it('rejects 4 digits for Visa', () => expect(codeOf({ cvc: '1234' })).to.equal('invalid_cvc'));
    it('rejects 2 digits', () => expect(codeOf({ cvc: '12' })).to.equal('invalid_cvc'));
    it('rejects non-digits', () => expect(codeOf({ cvc: '12a' })).to.equal('invalid_cvc'));
    it('rejects an empty CVC', () => expect(codeOf({ cvc: '' })).to.equal('invalid_cvc'));
    it('requires 4 digits for American Express', () => {
      expect(codeOf({ number: '378282246310005', cvc: '1234' })).to.equal(null);
      expect(codeOf({ number: '378282246310005', cvc: '123' })).to.equal('invalid_cvc');
    });
    it('requires 3 digits for the other brands', () => {
      for (const number of [
        '5555555555554444',
        '6011111111111117',
        '3566002020360505',
        '30569309025904',
        '6759649826438453',
      ]) {
        expect(codeOf({ number, cvc: '123' }), number).to.equal(null);
        expect(codeOf({ number, cvc: '1234' }), number).to.equal('invalid_cvc');
      }
    });
  });

  it('never puts the number or the CVC in a message', () => {
    const entries: Partial<CardEntry>[] = [
      { number: '4242424242424241' },
      { expMonth: 13 },
      { expYear: 25 },
      { expYear: 2025, expMonth: 1 },
      { cvc: '98765' },
    ];
    for (const entry of entries) {
      const failure = validateCardEntry({ ...valid, ...entry }, NOW);
      expect(failure, JSON.stringify(entry)).to.not.equal(null);
      expect(failure?.message).to.not.match(/\d{12,}/);
      expect(failure?.message).to.not.include('98765');
      expect(failure?.message).to.not.include('4242');
    }
  });
});
