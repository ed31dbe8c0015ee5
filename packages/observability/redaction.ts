import { format } from 'winston';
import { maskCardNumbers, REDACTED } from '../network/card-numbers-in-text.ts';

/**
 * Defense in depth: card data must never reach a log, even when a caller logs the wrong object.
 * Fields with these names are dropped wherever they appear (compared case-insensitively).
 */
const DROPPED_FIELDS = new Set(['number', 'cvc', 'cardnumber', 'password', 'authorization', 'secret', 'secretkey']);

export { REDACTED };

/** Nesting beyond this is cut: a log line is no place for deep structures (and cycles end here). */
const MAX_DEPTH = 10;

/** Every card number in the text, however written, replaced by REDACTED (see card-numbers-in-text.ts). */
export function redactText(text: string): string {
  return maskCardNumbers(text);
}

/** A redacted copy; the caller's objects are never modified. Errors become name, message and stack. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    return redactText(String(value)) === String(value) ? value : REDACTED;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const source =
    value instanceof Error ? { ...value, name: value.name, message: value.message, stack: value.stack } : value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(source)) {
    if (!DROPPED_FIELDS.has(key.toLowerCase())) copy[key] = redactValue(field, depth + 1);
  }
  return copy;
}

/**
 * Redacts a log entry in place (winston's symbol-keyed fields are kept). Field values are
 * replaced by redacted copies, so objects passed to the logger stay untouched.
 */
export const redactSensitive = format((info) => {
  for (const key of Object.keys(info)) {
    if (DROPPED_FIELDS.has(key.toLowerCase())) delete info[key];
    else info[key] = redactValue(info[key], 1);
  }
  return info;
});
