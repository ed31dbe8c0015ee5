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
 * object's keys). Written out by hand for the plain data events hold, since every append hashes its
 * events: the same text without the sorted copies. Anything else (a `toJSON`, a class instance, a
 * boxed primitive, a BigInt) takes the definition itself.
 */
export function canonicalJson(value: unknown): string {
  try {
    return writeValue(value) ?? (undefined as unknown as string);
  } catch (error) {
    if (error !== NOT_PLAIN_DATA) throw error;
    return sortedCopyJson(value);
  }
}

/** Thrown by `writeValue` at the first value that is not plain JSON data. */
const NOT_PLAIN_DATA = Symbol('not plain JSON data');

/** The canonical JSON of plain data; undefined where JSON leaves the value out. */
function writeValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      return writeObject(value);
    default:
      throw NOT_PLAIN_DATA;
  }
}

function writeArray(items: unknown[]): string {
  if (typeof (items as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN_DATA;
  let text = '[';
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0) text += ',';
    text += writeValue(items[index]) ?? 'null';
  }
  return `${text}]`;
}

function writeObject(object: object): string {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if ((prototype !== Object.prototype && prototype !== null) || 'toJSON' in object) throw NOT_PLAIN_DATA;
  const fields = object as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of keysInCanonicalOrder(fields)) {
    const field = writeValue(fields[key]);
    if (field === undefined) continue;
    text += `${first ? '' : ','}${jsonString(key)}:${field}`;
    first = false;
  }
  return `${text}}`;
}

/** Text JSON writes as it is, between quotes: no quote, backslash, control character or surrogate. */
// eslint-disable-next-line no-control-regex -- control characters are among what JSON escapes
const VERBATIM_IN_JSON = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** A string as JSON: most are written as they are, faster than `JSON.stringify` can. */
function jsonString(text: string): string {
  return VERBATIM_IN_JSON.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** An object's keys sorted, in the order an object made with them in that order enumerates them. */
function keysInCanonicalOrder(object: Record<string, unknown>): string[] {
  const keys = sortInPlace(Object.keys(object));
  // Keys that are array indexes (digits only) enumerate first, in numeric order, whatever the insertion order.
  return keys.some(startsWithDigit) ? Object.keys(Object.fromEntries(keys.map((key) => [key, true]))) : keys;
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

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

/** The definition of `canonicalJson`, for values that are not plain data. */
function sortedCopyJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
