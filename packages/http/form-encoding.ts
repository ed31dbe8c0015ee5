import qs from 'qs';
import { HttpError } from './errors.ts';
import { refuseReservedFormKeys } from './reserved-names.ts';

/**
 * Parses `application/x-www-form-urlencoded` text (form bodies and query strings) into nested
 * objects the way the client libraries encode them: `charge[amount]=100`, `items[0]=a`, `items[]=a`.
 * Limits keep a hostile request cheap: nesting at most 5 levels, at most 1000 parameters, arrays of
 * at most 100 items; exceeding one, or malformed percent-encoding, is a 400 (never ignored), and
 * so is a reserved key name such as `__proto__` (see reserved-names.ts).
 */
const FORM_OPTIONS = {
  depth: 5,
  strictDepth: true,
  parameterLimit: 1000,
  arrayLimit: 100,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  decoder: strictDecode,
} satisfies qs.IParseOptions;

export function parseFormEncoded(text: string, what: 'body' | 'query string'): Record<string, unknown> {
  refuseReservedFormKeys(formKeys(text));
  try {
    return qs.parse(text, FORM_OPTIONS);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // qs reports exceeded limits as RangeError.
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid request: the ${what} is nested too deeply or has too many parameters`,
    );
  }
}

function formKeys(text: string | undefined): string[] {
  return (text ?? '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => strictDecode(pair.split('=', 1)[0]!));
}

function strictDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new HttpError(400, 'invalid_request', 'Invalid request: malformed percent-encoding');
  }
}
