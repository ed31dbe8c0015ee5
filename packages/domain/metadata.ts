/**
 * Metadata: custom string key-value pairs on most updatable objects.
 * On update a given `metadata` object replaces the stored one as a whole (an empty object clears
 * it); omitting `metadata` leaves it unchanged. The shape limits (key and value length, number of
 * pairs) are enforced by request validation before a command reaches a decider.
 */
export type Metadata = Record<string, string>;

export function sameMetadata(a: Metadata | undefined, b: Metadata | undefined): boolean {
  const left = a ?? {};
  const right = b ?? {};
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => left[key] === right[key]);
}
