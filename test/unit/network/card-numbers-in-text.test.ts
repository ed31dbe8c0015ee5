import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  cardNumberSpans,
  containsCardNumber,
  maskCardNumbers,
  REDACTED,
} from '../../../packages/network/card-numbers-in-text.ts';
import { TEST_CARDS } from '../../../packages/network/test-cards.ts';

const VISA_13 = '4222222222222';
const MAESTRO_12 = '675964982648';
const VISA = '4242424242424242';

/** `4242…` written with `separator` between groups of four. */
const grouped = (separator: string, number = VISA) => number.match(/.{1,4}/g)!.join(separator);
const fullwidth = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const percentEncoded = (digits: string) => [...digits].map((d) => `%3${d}`).join('');

describe('card numbers in text', () => {
  it('finds every test card number, and the lengths only some brands issue: a 13-digit Visa, a 12-digit Maestro', () => {
    for (const number of [...TEST_CARDS.keys()].filter((n) => n !== '4242424242424241')) {
      expect(maskCardNumbers(`card ${number}.`), number).to.equal(`card ${REDACTED}.`);
    }
    expect(maskCardNumbers(`note: ${VISA_13} paid`)).to.equal(`note: ${REDACTED} paid`);
    expect(maskCardNumbers(`ref ${MAESTRO_12}`)).to.equal(`ref ${REDACTED}`);
  });

  it('finds a card number glued to letters or inside a longer run of digits', () => {
    expect(maskCardNumbers(`order-${VISA}`)).to.equal(`order-${REDACTED}`);
    expect(maskCardNumbers('char_4000000000000010x')).to.equal(`char_${REDACTED}x`);
    // The digits around it may make more Luhn-valid stretches: what is masked then reaches further.
    expect(maskCardNumbers(`9${VISA}0`)).to.match(/^9\[REDACTED\]0?$/);
    expect(maskCardNumbers(`000${VISA_13}`)).to.equal(`000${REDACTED}`);
    expect(maskCardNumbers(`ref 12 ${grouped(' ')}`)).to.equal(`ref 12 ${REDACTED}`);
  });

  it('finds card numbers grouped by any separator a person or a program puts between the groups', () => {
    const separators = [' ', '-', '.', '/', '+', '\u00a0', '\u202f', '\t', '\n', '\r\n', '\u200b', ' - ', '\u2013'];
    for (const separator of separators) {
      expect(maskCardNumbers(`[${grouped(separator)}]`), JSON.stringify(separator)).to.equal(`[${REDACTED}]`);
    }
    expect(maskCardNumbers(`amex 3782 822463 10005`)).to.equal(`amex ${REDACTED}`);
    expect(maskCardNumbers([...VISA].join('\u200b'))).to.equal(REDACTED);
    expect(maskCardNumbers(grouped('\u00a0', MAESTRO_12))).to.equal(REDACTED);
  });

  it('finds card numbers in fullwidth and other scripts’ digits', () => {
    expect(maskCardNumbers(`カード${fullwidth(VISA)}です`)).to.equal(`カード${REDACTED}です`);
    expect(maskCardNumbers(grouped('\u3000', fullwidth(VISA)))).to.equal(REDACTED);
    const arabicIndic = VISA.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
    expect(containsCardNumber(arabicIndic)).to.equal(true);
  });

  it('finds percent-encoded card numbers, digits and separators alike, as in a logged path', () => {
    expect(maskCardNumbers(`/customers/${percentEncoded(VISA)}`)).to.equal(`/customers/${REDACTED}`);
    for (const separator of ['%20', '%2D', '%2d', '+', '%2E', '%2F', '%C2%A0', '%E2%80%8B', '%09']) {
      expect(maskCardNumbers(`/customers/${grouped(separator)}/cards`), separator).to.equal(
        `/customers/${REDACTED}/cards`,
      );
    }
    const encodedFullwidth = [...VISA].map((d) => `%EF%BC%9${d}`).join('');
    expect(maskCardNumbers(`/c/${encodedFullwidth}`)).to.equal(`/c/${REDACTED}`);
    expect(maskCardNumbers(`/c/${percentEncoded(VISA_13)}%20x`)).to.equal(`/c/${REDACTED}%20x`);
  });

  it('finds them in headers as clients send them', () => {
    expect(containsCardNumber(`order-${VISA}`)).to.equal(true);
    expect(maskCardNumbers(`Mozilla/5.0 (X11; ${grouped(' ')}) Gecko/20100101`)).to.equal(
      `Mozilla/5.0 (X11; ${REDACTED}) Gecko/20100101`,
    );
    expect(maskCardNumbers(`pl-PL,${VISA};q=0.9`)).to.equal(`pl-PL,${REDACTED};q=0.9`);
  });

  it('gives where each number stands, overlapping finds merged', () => {
    const text = `a ${VISA} b ${VISA_13}`;
    expect(cardNumberSpans(text)).to.deep.equal([
      { start: 2, end: 18 },
      { start: 21, end: 34 },
    ]);
  });

  it('leaves alone digit runs that are not card numbers: timestamps, amounts, ids, phones, addresses', () => {
    const ordinary = [
      '2026-11-26T17:59:53.123Z',
      'at 1795000000004 ms, 1700000000 s',
      'amount 123456789012 cents',
      'order 4242424242424241 (fails the Luhn check)',
      '9999999999999995 passes Luhn, but no brand issues numbers starting with 9',
      '42424242424242 is Luhn-valid with a Visa prefix, but Visa issues no 14-digit numbers',
      '555555555555558 is Luhn-valid with a Mastercard prefix, but 15 digits long',
      'cust_Ab3dE9fG1hI2jK3lM4nO5pQ6 and 550e8400-e29b-41d4-a716-446655440000',
      'call +48 600 123 456 or +1 (555) 123-4567',
      'from 192.168.100.200 on 26.11.2026, 2026/11/26 18:00',
      // Four separators are more than a gap between the groups of one number.
      `${grouped('    ')}`,
      '4242,4242,4242,4242',
    ];
    for (const text of ordinary) {
      expect(maskCardNumbers(text), text).to.equal(text);
      expect(containsCardNumber(text), text).to.equal(false);
    }
  });

  it('takes a UUID for the identifier it is, whatever its digits: random UUIDs are never refused', () => {
    // Read as groups of digits, these hold stretches that pass for card numbers (about one random UUID in 940).
    const unlucky = [
      'f3915144-6810-463a-a56d-7b32da28afe2',
      'e5885087-3288-4afa-9a2a-6176fe6ca7cd',
      '34ad6f45-781a-484a-91ec-578820179583',
    ];
    for (const uuid of unlucky) {
      for (const text of [uuid, uuid.toUpperCase(), `order_${uuid}`, `key ${uuid}, again ${uuid}`]) {
        expect(containsCardNumber(text), text).to.equal(false);
        expect(maskCardNumbers(text), text).to.equal(text);
      }
    }
    const random = Array.from({ length: 100_000 }, () => randomUUID());
    expect(random.filter((uuid) => containsCardNumber(uuid))).to.deep.equal([]);
  });

  it('still finds a card number beside a UUID, or in a UUID-like text that is not one', () => {
    const uuid = 'f3915144-6810-463a-a56d-7b32da28afe2';
    expect(maskCardNumbers(`${uuid} ${VISA}`)).to.equal(`${uuid} ${REDACTED}`);
    expect(maskCardNumbers(`${VISA} ${uuid}`)).to.equal(`${REDACTED} ${uuid}`);
    // Glued to a digit, or one group too long: not a UUID, so its groups are read as digits.
    expect(containsCardNumber(`9${uuid}`)).to.equal(true);
    expect(containsCardNumber(`${uuid}0`)).to.equal(true);
    expect(containsCardNumber(`${uuid}a`)).to.equal(true);
  });
});
