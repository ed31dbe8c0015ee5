import { expect } from 'chai';
import { loadRowsById, type IdHash, type RowsById } from '../../../packages/readstore/rows-by-id.ts';

const { RowsById: Rows, hashId } = loadRowsById();

/** Every id the same hash: each lookup meets every row added before it. */
const oneHash: IdHash = () => -12_345;

/** The rows a lookup of `id` names as candidates, in probing order. */
function candidates(rows: RowsById, id: string): number[] {
  const found: number[] = [];
  for (let slot = rows.first(id); slot >= 0; slot = rows.next(slot)) found.push(rows.rowAt(slot));
  return found;
}

describe('RowsById: the rows of a table being built, by a hash of their ids', () => {
  it('names every row whose id shares the hash, so that the stored ids decide, through growth and deletions', () => {
    const rows = new Rows(oneHash);
    for (let row = 1; row <= 3_000; row++) {
      // The lookup before each add, as the writer does it: every earlier row is a candidate.
      expect(candidates(rows, `cus_${row}`)).to.have.length(row - 1);
      rows.add(row);
    }
    expect(rows.size).to.equal(3_000);
    const all = candidates(rows, 'cus_anything');
    expect([...all].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 3_000 }, (_, i) => i + 1));
    // Forget rows 1..1,000 (documents deleted): they are never named again, and new rows come after them.
    for (let slot = rows.first('x'); slot >= 0; slot = rows.next(slot))
      if (rows.rowAt(slot) <= 1_000) rows.remove(slot);
    for (let row = 3_001; row <= 4_000; row++) {
      candidates(rows, `cus_${row}`);
      rows.add(row);
    }
    expect(rows.size).to.equal(3_000);
    expect(candidates(rows, 'y').sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 3_000 }, (_, i) => i + 1_001),
    );
  });

  it('finds each of 300,000 ids among few candidates', () => {
    const rows = new Rows(hashId);
    const count = 300_000;
    let before = 0;
    for (let row = 1; row <= count; row++) {
      // Every candidate checked (each another id's), as the writer does before it adds a row.
      before += candidates(rows, `cus_${row.toString(36)}`).length;
      rows.add(row);
    }
    let missing = 0;
    let others = 0;
    for (let row = 1; row <= count; row++) {
      const found = candidates(rows, `cus_${row.toString(36)}`);
      if (!found.includes(row)) missing++;
      others += found.length - 1;
    }
    expect(missing).to.equal(0);
    // 32-bit hashes: about n² / 2³³ pairs of ids share one (ten here), each id of a pair the other's candidate.
    expect(before).to.be.below(40);
    expect(others).to.be.below(80);
  });

  it('refuses a row number that SQLite would not give', () => {
    const rows = new Rows(hashId);
    rows.first('cus_1');
    expect(() => rows.add(0)).to.throw(RangeError);
  });
});
