import { createHash } from 'node:crypto';
import type { EventMetadata } from './event-store.ts';

/**
 * Tamper evidence of the log (`docs/audit.md`). Every event's hash is the SHA-256 of the event
 * (stream, revision, id, type, data, metadata: as canonical JSON, keys sorted) and of the hash of
 * the event before it in its stream, so a changed, removed or inserted event breaks the chain of
 * every later event of its stream. The first event of a stream chains to the genesis hash.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** What a hash covers: the event as recorded, without where or when the store put it. */
export interface HashedContent {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export function eventHash(previousHash: string, event: HashedContent): string {
  const content = canonicalJson({
    previousHash,
    streamId: event.streamId,
    revision: event.revision,
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
  return createHash('sha256').update(content).digest('hex');
}

/** The hash of the last of a stream's events (in revision order, from revision 0): what the next one chains to. */
export function chainHead(events: readonly HashedContent[]): string {
  return events.reduce((previous, event) => eventHash(previous, event), GENESIS_HASH);
}

/**
 * JSON with object keys sorted at every level, so a store that gives keys back in another order
 * (or a JSON round trip) hashes the same; `undefined` fields are left out as JSON does.
 *
 * Defined as `JSON.stringify` of a copy of the value whose objects have their keys sorted (in code
 * unit order; keys that are array indexes then come first, in numeric order, as JavaScript orders an
 * object's keys). Every append hashes its events, so the plain data they hold is copied in one
 * pass, each object's keys sorted in place and inserted in that order (no arrays of entries, no
 * sorted copies of the key lists), and written by `JSON.stringify` as it is. Anything else (a
 * `toJSON`, a class instance, a null prototype, a boxed primitive, a BigInt, a `__proto__` key)
 * takes the definition itself.
 */
export function canonicalJson(value: unknown): string {
  let copy: unknown;
  try {
    copy = sortedCopy(value);
  } catch (error) {
    if (error !== NOT_PLAIN_DATA) throw error;
    return sortedCopyJson(value);
  }
  return JSON.stringify(copy);
}

/**
 * A value as a reader gets it back from its JSON text (`stored`), for hashing: the value itself when
 * it is plain data, whose canonical JSON is that of its JSON round trip (no parse needed), else
 * the parsed text.
 */
export function asStored(value: unknown, stored: string): unknown {
  return isPlainData(value) ? value : JSON.parse(stored);
}

/**
 * How plain JSON data holds a value: a leaf (a primitive other than a BigInt), an array (without a
 * `toJSON`), a plain object (`Object.prototype`, no `toJSON`); null when it is not plain data. The
 * one rule both `isPlainData` and `sortedCopy` walk by (a `__proto__` key is their loops' check).
 */
function plainShape(value: unknown): 'leaf' | 'array' | 'object' | null {
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' ? null : 'leaf';
  if (Array.isArray(value)) return typeof (value as { toJSON?: unknown }).toJSON === 'function' ? null : 'array';
  return Object.getPrototypeOf(value) === Object.prototype && !('toJSON' in value) ? 'object' : null;
}

/** Plain JSON data at every level (`plainShape`), with no `__proto__` key. */
function isPlainData(value: unknown): boolean {
  const shape = plainShape(value);
  if (shape === 'array') {
    const items = value as unknown[];
    for (let index = 0; index < items.length; index += 1) if (!isPlainData(items[index])) return false;
  } else if (shape === 'object') {
    for (const key in value as object) {
      if (key === '__proto__' || !isPlainData((value as Record<string, unknown>)[key])) return false;
    }
  }
  return shape !== null;
}

/** Thrown by `sortedCopy` at the first value that is not plain JSON data. */
const NOT_PLAIN_DATA = Symbol('not plain JSON data');

/**
 * Plain data with every object's keys inserted in sorted order; arrays of plain values as they are.
 * Objects with the same keys share one hidden class, so these copies cost little.
 */
function sortedCopy(value: unknown): unknown {
  const shape = plainShape(value);
  if (shape === 'leaf') return value;
  if (shape === null) throw NOT_PLAIN_DATA;
  if (shape === 'array') {
    const items = value as unknown[];
    let copy: unknown[] | undefined;
    for (let index = 0; index < items.length; index += 1) {
      const item: unknown = items[index];
      const itemCopy = sortedCopy(item);
      if (itemCopy !== item) (copy ??= items.slice())[index] = itemCopy;
    }
    return copy ?? items;
  }
  const fields = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of sortInPlace(Object.keys(fields))) {
    // Assigned, this key would set the copy's prototype instead.
    if (key === '__proto__') throw NOT_PLAIN_DATA;
    copy[key] = sortedCopy(fields[key]);
  }
  return copy;
}

/** Up to this many keys an object's keys are sorted by insertion. */
const FEW_KEYS = 64;

/**
 * Sorts texts in code unit order (as `Array.prototype.sort`); a few by insertion, in place: the
 * built-in sort copies the array first, garbage on every append.
 */
function sortInPlace(texts: string[]): string[] {
  if (texts.length > FEW_KEYS) return texts.sort();
  for (let next = 1; next < texts.length; next += 1) {
    const text = texts[next]!;
    let place = next;
    for (; place > 0 && texts[place - 1]! > text; place -= 1) texts[place] = texts[place - 1]!;
    texts[place] = text;
  }
  return texts;
}

/** The definition of `canonicalJson`, for values that are not plain data. */
function sortedCopyJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
