/**
 * The rows of one table of a read store file being built, by a 64-bit hash of each document's id:
 * the build appends each document's row when it is first written and keeps no index of the ids in
 * the file until it is sealed (`SqliteBuildFile`, `docs/benchmarks.md`, "Rebuilds"). An
 * open-addressing table in one `Int32Array`, 12 bytes a slot (the hash's two halves and the row;
 * linear probing, at most three quarters full): 16–32 bytes a document, nothing for the garbage
 * collector to trace. A hash names candidates, never an answer: two ids may share one, so whoever
 * holds the rows checks each candidate row's stored id and probes on (`next`) when it is another's.
 *
 * Plain JavaScript, as text: the build's writer thread evaluates it (`SqliteWriterThread` runs no
 * module of ours), and `loadRowsById` makes the same class here, for tests.
 */
export const ROWS_BY_ID_SOURCE = `
class RowsById {
  /** hash(id, out): writes the id's 64-bit hash into out[0] and out[1]. */
  constructor(hash) {
    this.hash = hash;
    this.hashed = new Int32Array(2);
    this.slots = new Int32Array(3 << 10);
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
    this.hash(id, this.hashed);
    return this.probe(this.hashed[0] & this.mask);
  }

  /** The next slot after \`slot\` with the same hash (its row held another id), or -1. */
  next(slot) {
    return this.probe((slot + 1) & this.mask);
  }

  /** The row of a slot that first() or next() returned. */
  rowAt(slot) {
    return this.slots[slot * 3 + 2];
  }

  /** Gives the id of the last probe, which ended without finding it (-1), its row. */
  add(row) {
    if (!(row >= 1 && row <= 0x7fffffff)) throw new RangeError('Row number out of range: ' + row);
    if ((this.used + 1) * 4 > (this.mask + 1) * 3) {
      this.rehash(this.size * 2 > this.mask ? (this.mask + 1) * 2 : this.mask + 1);
      this.free = this.emptySlot(this.hashed[0] & this.mask);
    }
    const at = this.free * 3;
    this.slots[at] = this.hashed[0];
    this.slots[at + 1] = this.hashed[1];
    this.slots[at + 2] = row;
    this.used++;
    this.free = -1;
  }

  /** Forgets a slot's row (its document was deleted). */
  remove(slot) {
    this.slots[slot * 3 + 2] = -1;
    this.removed++;
  }

  probe(from) {
    const slots = this.slots;
    const a = this.hashed[0];
    const b = this.hashed[1];
    for (let slot = from; ; slot = (slot + 1) & this.mask) {
      const at = slot * 3;
      const row = slots[at + 2];
      if (row === 0) {
        this.free = slot;
        return -1;
      }
      if (row > 0 && slots[at] === a && slots[at + 1] === b) return slot;
    }
  }

  emptySlot(from) {
    let slot = from;
    while (this.slots[slot * 3 + 2] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** Moves every row into a table of \`slotCount\` slots, leaving the deleted ones behind. */
  rehash(slotCount) {
    const old = this.slots;
    this.slots = new Int32Array(slotCount * 3);
    this.mask = slotCount - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] <= 0) continue;
      const to = this.emptySlot(old[at] & this.mask) * 3;
      this.slots[to] = old[at];
      this.slots[to + 1] = old[at + 1];
      this.slots[to + 2] = old[at + 2];
    }
    this.used -= this.removed;
    this.removed = 0;
  }
}

/** Two 32-bit hashes of an id (FNV-1a steps with two multipliers, each then MurmurHash3's finaliser). */
function hashId(id, out) {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  out[0] = finalise(a);
  out[1] = finalise(b ^ id.length);
}

function finalise(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
`;

/** A 64-bit hash of an id, written into `out[0]` and `out[1]`. */
export type IdHash = (id: string, out: Int32Array) => void;

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
