import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCardData } from '../support/card-data-scan.ts';

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
});
