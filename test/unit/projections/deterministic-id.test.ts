import { expect } from 'chai';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { deterministicId } from '../../../projections/deterministic-id.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The id's definition, spelled out with BigInt: the seed's SHA-256 as a number, 24 base-62 digits from the lowest. */
function definedId(prefix: string, seed: string): string {
  let number = BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`);
  let digits = '';
  for (let i = 0; i < 24; i++) {
    digits += ALPHABET[Number(number % 62n)];
    number /= 62n;
  }
  return `${prefix}_${digits}`;
}

describe('deterministic ids', () => {
  it('keep the ids already stored in read models (public events, their logs, webhook deliveries)', () => {
    expect(deterministicId('event', 'evt_1:0')).to.equal('event_bRBoZP2SuOE5QAsfqEylex4X');
    expect(deterministicId('log', 'req_8f3kQ2')).to.equal('log_re1621q4vDwXTidPhR4ZVrH9');
    expect(deterministicId('wd', 'we_x:event_y')).to.equal('wd_biLAIg70il8wgwima1vlhi5f');
    expect(deterministicId('event', '')).to.equal('event_5IxLHpeEWjUSnpuggYAkGEii');
  });

  it('are the base-62 digits of the seed’s SHA-256 for any seed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (seed) => {
        expect(deterministicId('event', seed)).to.equal(definedId('event', seed));
      }),
      { numRuns: 2000 },
    );
  });

  it('are the same for fifty thousand event ids in a row', () => {
    for (let index = 0; index < 50_000; index++) {
      const seed = `evt_${index.toString(36)}:${index % 3}`;
      if (deterministicId('event', seed) !== definedId('event', seed))
        expect(deterministicId('event', seed)).to.equal(definedId('event', seed));
    }
  });
});
