import { expect } from 'chai';
import currencyCodes from 'currency-codes';
import { currencyDigits, formatMoney, parseMoney } from '../../packages/money/money.ts';

describe('money: amounts as payers read and type them', () => {
  it('uses the ISO 4217 minor unit, not the runtime tables: 150000 HUF is 1,500.00 HUF', () => {
    expect(formatMoney(150000, 'HUF')).to.equal('1,500.00 HUF');
    expect(formatMoney(1999, 'EUR')).to.equal('19.99 EUR');
    expect(formatMoney(500, 'JPY')).to.equal('500 JPY');
    expect(formatMoney(1234, 'KWD')).to.equal('1.234 KWD');
    expect(parseMoney('1500', 'HUF')).to.equal(150000);
  });

  it('agrees with currency-codes on every currency', () => {
    for (const code of currencyCodes.codes()) {
      const digits = currencyCodes.code(code)!.digits;
      expect(currencyDigits(code), code).to.equal(digits);
      expect(parseMoney(formatMoney(12345600, code).replace(` ${code}`, ''), code), code).to.equal(12345600);
    }
  });

  it("writes the number in the page's language", () => {
    expect(formatMoney(123456, 'EUR', 'de')).to.equal('1.234,56 EUR');
    expect(formatMoney(123456, 'EUR', 'fr')).to.match(/^1\s234,56 EUR$/);
    expect(formatMoney(2500, 'EUR', 'nl')).to.equal('25,00 EUR');
    expect(parseMoney(formatMoney(123456, 'EUR', 'fr').replace(' EUR', ''), 'EUR')).to.equal(123456);
  });

  it('reads a typed amount with a point or a comma, and refuses what is not an amount', () => {
    expect(parseMoney('25,5', 'EUR')).to.equal(2550);
    expect(parseMoney('25.50', 'EUR')).to.equal(2550);
    expect(parseMoney(' 1.234,56 ', 'EUR')).to.equal(123456);
    expect(parseMoney('1,000', 'EUR')).to.equal(100000);
    expect(parseMoney('1,000', 'JPY')).to.equal(1000);
    for (const bad of ['', 'abc', '12.345.6x', '-5', '1e3', '10.5', '.'])
      expect(parseMoney(bad, bad === '10.5' ? 'JPY' : 'EUR'), bad).to.equal(null);
  });
});
