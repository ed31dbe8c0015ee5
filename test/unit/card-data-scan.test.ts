import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardNumbersIn, findCardData, MAESTRO_12_DIGITS, VISA_13_DIGITS } from '../support/card-data-scan.ts';

describe('card-data scan of a data directory and logs', () => {
  it('finds a test card number in any file or in the output, masked; nothing in clean ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    try {
      writeFileSync(join(dir, 'read.sqlite'), Buffer.from('\u0000\u0001{"last4":"4242","first6":"424242"}'));
      expect(findCardData(dir, '{"message":"card [REDACTED]"}')).to.deep.equal([]);
      writeFileSync(join(dir, 'state.sqlite-wal'), Buffer.from('\u0000xx5555555555554444yy'));
      expect(findCardData(dir, 'paid with 378282246310005')).to.deep.equal([
        'state.sqlite-wal: 555555…4444',
        'service output: 378282…0005',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a number that straddles two of the chunks a large file is read in', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    try {
      const large = Buffer.alloc(64 * 2 ** 20 + 100, 0x20);
      Buffer.from('4242424242424242').copy(large, 64 * 2 ** 20 - 8);
      writeFileSync(join(dir, 'events.sqlite'), large);
      expect(findCardData(dir, '')).to.deep.equal(['events.sqlite: 424242…4242']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds card numbers however they are written: other lengths, inside digit runs, grouped, encoded', () => {
    const visa = '4242424242424242';
    const spellings = [
      `note ${VISA_13_DIGITS}`,
      `ref ${MAESTRO_12_DIGITS}`,
      `9${visa}0`,
      `000${visa}`,
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '4242\u00a04242\u00a04242\u00a04242',
      '4242\\t4242\\t4242\\t4242',
      '4242\t4242\n4242\r\n4242',
      '"4242\\u00a04242\\u200b4242 4242"',
      '4\u200b2\u200b4\u200b2424242424242',
      '４２４２４２４２４２４２４２４２',
      '/customers/%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32',
      '/customers/4242%204242%2D4242+4242',
      '/customers/4242%C2%A04242%E2%80%8B4242%EF%BC%94242',
    ];
    for (const text of spellings) expect(cardNumbersIn(text), text).to.have.length.greaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    try {
      writeFileSync(
        join(dir, 'events.sqlite'),
        Buffer.from(`\u0000{"idempotencyKey":"order-4242\u00a04242.4242-4242"}`),
      );
      writeFileSync(join(dir, 'state.sqlite'), Buffer.from(`\u0000{"userAgent":"x ４２２２２２２２２２２２２"}`));
      expect(findCardData(dir, 'GET /customers/%36%37%35%39%36%34%39%38%32%36%34%38')).to.deep.equal([
        'events.sqlite: 424242…4242',
        'state.sqlite: 422222…2222',
        'service output: 675964…2648',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not take timestamps, amounts, ids or card display fragments for card numbers', () => {
    const clean = [
      '{"first6":"424242","last4":"4242","amount":424242,"created":1795000000}',
      '2026-11-26T17:59:53.123Z 4242 4242',
      'cust_4242424242ab42424242',
    ];
    for (const text of clean) expect(cardNumbersIn(text), text).to.deep.equal([]);
  });
});
