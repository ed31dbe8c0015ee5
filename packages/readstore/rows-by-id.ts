/**
 * The rows of one table of a read store file being built, by a 32-bit hash of each document's id:
 * the build appends each document's row when it is first written and keeps no index of the ids in
 * the file until it is sealed (`SqliteBuildFile`, `docs/benchmarks.md`, "Rebuilds"). An
 * open-addressing table in one `Int32Array`, 8 bytes a slot (the hash and the row; linear
 * probing, at most three quarters full): 10.7–21.3 bytes a document, nothing for the garbage
 * collector to trace. A hash names candidates, never an answer: two ids may share one, so whoever
 * holds the rows checks each candidate row's stored id and probes on (`next`) when it is another's.
 * Ids that share a hash are rare enough (about n² / 2³³ pairs in a table of n documents: a hundred
 * at a million, ten thousand at ten million) that checking them costs nothing measurable, so the
 * hash need not be longer.
 *
 * Plain JavaScript, as text: the build's writer thread evaluates it (`SqliteWriterThread` runs no
 * module of ours), and `loadRowsById` makes the same class here, for tests.
 */
export const ROWS_BY_ID_SOURCE = `
class RowsById {
  /** hash(id): the id's 32-bit hash, as a signed integer. */
  constructor(hash) {
    this.hash = hash;
    this.hashed = 0;
    this.slots = new Int32Array(2 << 10);
    this.mask = (1 << 10) - 1;
    // Slots holding a row, and slots of deleted rows (still probed through until the table grows).
    this.used = 0;
    this.removed = 0;
    // The empty slot the last probe ended on: where add() puts the id.
    this.free = -1;
  }

  /** How many documents have a row. */
  get size() {
    return this.used - this.removed;
  }

  /** The first slot whose hash is the id's, or -1 (then add() gives the id a row). */
  first(id) {
    this.hashed = this.hash(id);
    return this.probe(this.hashed & this.mask);
  }

  /** The next slot after \`slot\` with the same hash (its row held another id), or -1. */
  next(slot) {
    return this.probe((slot + 1) & this.mask);
  }

  /** The row of a slot that first() or next() returned. */
  rowAt(slot) {
    return this.slots[slot * 2 + 1];
  }

  /** Gives the id of the last probe, which ended without finding it (-1), its row. */
  add(row) {
    if (!(row >= 1 && row <= 0x7fffffff)) throw new RangeError('Row number out of range: ' + row);
    if ((this.used + 1) * 4 > (this.mask + 1) * 3) {
      this.rehash(this.size * 2 > this.mask ? (this.mask + 1) * 2 : this.mask + 1);
      this.free = this.emptySlot(this.hashed & this.mask);
    }
    const at = this.free * 2;
    this.slots[at] = this.hashed;
    this.slots[at + 1] = row;
    this.used++;
    this.free = -1;
  }

  /** Forgets a slot's row (its document was deleted). */
  remove(slot) {
    this.slots[slot * 2 + 1] = -1;
    this.removed++;
  }

  probe(from) {
    const slots = this.slots;
    const hashed = this.hashed;
    for (let slot = from; ; slot = (slot + 1) & this.mask) {
      const row = slots[slot * 2 + 1];
      if (row === 0) {
        this.free = slot;
        return -1;
      }
      if (row > 0 && slots[slot * 2] === hashed) return slot;
    }
  }

  emptySlot(from) {
    let slot = from;
    while (this.slots[slot * 2 + 1] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** Moves every row into a table of \`slotCount\` slots, leaving the deleted ones behind. */
  rehash(slotCount) {
    const old = this.slots;
    this.slots = new Int32Array(slotCount * 2);
    this.mask = slotCount - 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] <= 0) continue;
      const to = this.emptySlot(old[at] & this.mask) * 2;
      this.slots[to] = old[at];
      this.slots[to + 1] = old[at + 1];
    }
    this.used -= this.removed;
    this.removed = 0;
  }
}

/** A 32-bit hash of an id: FNV-1a, then MurmurHash3's finaliser (every bit of it moves every bit of the slot). */
function hashId(id) {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
`;

/** A 32-bit hash of an id, as a signed integer. */
export type IdHash = (id: string) => number;

export interface RowsById {
  readonly size: number;
  first(id: string): number;
  next(slot: number): number;
  rowAt(slot: number): number;
  add(row: number): void;
  remove(slot: number): void;
}

/** The class the writer thread runs, made from the same text; `hash` replaces the ids' hash (tests force collisions with it). */
export function loadRowsById(): { RowsById: new (hash: IdHash) => RowsById; hashId: IdHash } {
  return new Function(`${ROWS_BY_ID_SOURCE}\nreturn { RowsById, hashId };`)() as ReturnType<typeof loadRowsById>;
}
