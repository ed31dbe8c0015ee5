/** Bits of the filter by default: 2 MiB, a few percent of false positives at two million documents. */
const DEFAULT_BITS = 1 << 24;

/**
 * The documents a runner has written into a build that started empty, as a Bloom filter over
 * (collection, id): a document it has not written does not exist, so reading it can be skipped.
 * A false positive only costs the read. Kept while the build catches up with the log, where nearly
 * every read is of a document the batch is about to create.
 */
export class WrittenDocuments {
  private readonly bits: Uint32Array;
  private readonly mask: number;

  /** `bits`: a power of two; more keep false positives rare at more documents. */
  constructor(bits = DEFAULT_BITS) {
    this.bits = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  add(collection: string, id: string): void {
    hash(collection, id, this.mask);
    this.bits[first >>> 5]! |= 1 << (first & 31);
    this.bits[second >>> 5]! |= 1 << (second & 31);
  }

  /** False when the document was certainly never written. */
  mayHave(collection: string, id: string): boolean {
    hash(collection, id, this.mask);
    return (
      (this.bits[first >>> 5]! & (1 << (first & 31))) !== 0 && (this.bits[second >>> 5]! & (1 << (second & 31))) !== 0
    );
  }
}

/** The bit positions of the last hashed document (module state: no allocation per call). */
let first = 0;
let second = 0;

/** Two independent 32-bit FNV-1a style hashes of the collection and id, reduced to bit positions. */
function hash(collection: string, id: string, mask: number): void {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let i = 0; i < collection.length; i++) {
    const code = collection.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  a = Math.imul(a ^ 0xff, 0x01000193);
  b = Math.imul(b ^ 0xff, 0x5bd1e995);
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  b ^= b >>> 15;
  first = (a >>> 0) & mask;
  second = (b >>> 0) & mask;
}
