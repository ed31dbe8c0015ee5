import { expect } from 'chai';
import creditCardType from 'credit-card-type';
import countries from 'i18n-iso-countries';
import { BIN_TABLE, binInfo } from '../../../packages/network/bin-table.ts';
import { cardBrandOf } from '../../../packages/network/card-brand.ts';
import type { BinInfo } from '../../../packages/network/card-network.ts';

describe('BIN table and brand detection', () => {
  const expected: Record<string, Pick<BinInfo, 'brand' | 'type' | 'country'>> = {
    '4242424242424242': { brand: 'Visa', type: 'Credit Card', country: 'US' },
    '4000056655665556': { brand: 'Visa', type: 'Debit Card', country: 'GB' },
    '4000000000000077': { brand: 'Visa', type: 'Prepaid Card', country: 'US' },
    '5555555555554444': { brand: 'MasterCard', type: 'Credit Card', country: 'US' },
    '5200828282828210': { brand: 'MasterCard', type: 'Debit Card', country: 'PL' },
    '378282246310005': { brand: 'American Express', type: 'Credit Card', country: 'US' },
    '6011111111111117': { brand: 'Discover', type: 'Credit Card', country: 'US' },
    '3566002020360505': { brand: 'JCB', type: 'Credit Card', country: 'JP' },
    '30569309025904': { brand: 'Diners Club', type: 'Credit Card', country: 'US' },
    '6759649826438453': { brand: 'Maestro', type: 'Debit Card', country: 'GB' },
    '4000000000000002': { brand: 'Visa', type: 'Credit Card', country: 'US' },
    '4100000000000019': { brand: 'Visa', type: 'Credit Card', country: 'US' },
    '4242000000000018': { brand: 'Visa', type: 'Credit Card', country: 'US' },
  };
  for (const [number, info] of Object.entries(expected)) {
    it(`${number} is ${info.brand} ${info.type} from ${info.country}`, () => {
      const actual = binInfo(number);
      expect({ brand: actual.brand, type: actual.type, country: actual.country }).to.deep.equal(info);
      expect(actual.issuer)
        .to.be.a('string')
        .and.match(/Test .*Bank/);
    });
  }

  it('knows the brand but not the BIN of an unlisted number', () => {
    expect(binInfo('4111111111111111')).to.deep.equal({ brand: 'Visa', type: 'Unknown', country: null, issuer: null });
    expect(binInfo('5105105105105100')).to.deep.equal({
      brand: 'MasterCard',
      type: 'Unknown',
      country: null,
      issuer: null,
    });
  });

  it('answers Unknown for an unknown prefix', () => {
    expect(binInfo('9999999999999995')).to.deep.equal({
      brand: 'Unknown',
      type: 'Unknown',
      country: null,
      issuer: null,
    });
  });

  it('maps brands the service does not support to Unknown', () => {
    expect(cardBrandOf('6200000000000005')).to.equal('Unknown'); // UnionPay
    expect(cardBrandOf('2200000000000004')).to.equal('Unknown'); // Mir
  });

  it('gives every prefix and length the brand the detection library gives, also when a BIN was seen before', () => {
    const ours: Record<string, string> = { Mastercard: 'MasterCard' };
    const libraryBrand = (number: string): string => {
      const niceType = creditCardType(number)[0]?.niceType ?? 'Unknown';
      const supported = ['Visa', 'American Express', 'Maestro', 'Discover', 'JCB', 'Diners Club'];
      return ours[niceType] ?? (supported.includes(niceType) ? niceType : 'Unknown');
    };
    // Leads where one more digit changes the brand (Mastercard 2221–2720, Discover 622126–622925,
    // Troy's 8-digit ranges inside Discover's), each padded out to every length a number can have.
    const leads = ['2', '2220', '2221', '2720', '2721', '3', '34', '36', '3528', '4', '4011', '5018', '6', '6011'];
    leads.push('622125', '622126', '622925', '622926', '65083704', '65083705', '65875003', '65875004');
    for (const lead of leads)
      for (const padding of ['0', '9'])
        for (let length = 1; length <= 19; length++) {
          const number = lead.slice(0, length).padEnd(length, padding);
          expect(cardBrandOf(number), number).to.equal(libraryBrand(number));
        }
  });

  it('answers Unknown for input that is not digits', () => expect(cardBrandOf('4242-4242')).to.equal('Unknown'));

  it('uses valid ISO 3166 alpha-2 countries', () => {
    for (const entry of BIN_TABLE) expect(countries.isValid(entry.country), entry.country).to.equal(true);
  });

  it('lists each prefix once', () => {
    const prefixes = BIN_TABLE.map((entry) => entry.prefix);
    expect(new Set(prefixes).size).to.equal(prefixes.length);
  });
});
