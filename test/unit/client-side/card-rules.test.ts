import { expect } from 'chai';
import {
  brandOf,
  checkCvc,
  checkExpiry,
  checkNumber,
  cvcLengthOf,
  errorToShow,
  formatExpiry,
  formatNumber,
  passesLuhn,
} from '../../../packages/client-side/fields/card-rules.ts';

const now = new Date('2026-06-15T12:00:00Z');

describe('card field rules (what the fields check as the customer types)', () => {
  it('recognises brands and groups the number by them', () => {
    expect(brandOf('4242')?.name).to.equal('Visa');
    expect(brandOf('3782')?.name).to.equal('American Express');
    expect(brandOf('5555')?.name).to.equal('Mastercard');
    expect(formatNumber('4242424242424242')).to.equal('4242 4242 4242 4242');
    expect(formatNumber('3782-8224-6310-005')).to.equal('3782 822463 10005');
    expect(formatNumber('4'.repeat(25)).replace(/ /g, '')).to.have.length(19);
  });

  it('checks the Luhn checksum once the number has a length of its brand', () => {
    expect(passesLuhn('4242424242424242')).to.equal(true);
    expect(passesLuhn('4242424242424241')).to.equal(false);
    expect(checkNumber('4242 4242 4242 4242')).to.include({ complete: true, error: null });
    expect(checkNumber('4242 4242 4242 4241').error).to.equal('numberInvalid');
    expect(checkNumber('4242 4242')).to.include({ complete: false, error: null });
    expect(errorToShow(checkNumber('4242 4242'), true)).to.equal('numberIncomplete');
    expect(errorToShow(checkNumber('4242 4242'), false)).to.equal(null);
    expect(checkNumber('99').error).to.equal('numberInvalid');
  });

  it('formats the expiry as MM / YY and refuses past dates and impossible months', () => {
    expect(formatExpiry('1230')).to.equal('12 / 30');
    // A month that cannot take a second digit is completed, and the year is next.
    expect(formatExpiry('4')).to.equal('04 / ');
    expect(formatExpiry('1')).to.equal('1');
    expect(formatExpiry('12', true)).to.equal('12');
    expect(checkExpiry('06 / 26', now)).to.include({ complete: true, error: null });
    expect(checkExpiry('05 / 26', now).error).to.equal('expiryPast');
    expect(checkExpiry('12 / 25', now).error).to.equal('expiryYearPast');
    expect(checkExpiry('13', now).error).to.equal('expiryMonthInvalid');
    expect(checkExpiry('12 / 3', now)).to.include({ complete: false, error: null });
  });

  it('asks for the security code length of the brand: 4 for American Express, else 3', () => {
    expect(cvcLengthOf(brandOf('3782'))).to.equal(4);
    expect(cvcLengthOf(brandOf('4242'))).to.equal(3);
    expect(checkCvc('123', 4)).to.include({ complete: false });
    expect(checkCvc('1234', 4)).to.include({ complete: true, error: null });
    expect(checkCvc('1234', 3).error).to.equal('cvcInvalid');
  });
});
