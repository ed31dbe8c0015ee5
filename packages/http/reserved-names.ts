import { HttpError } from './errors.ts';

/**
 * Parameter names that are refused anywhere in a body or query string: the names of
 * Object.prototype's members (`__proto__`, `constructor`, `toString`, …) and `prototype`. A
 * decoder or a later `obj[key] = …` would otherwise drop them silently or treat them specially;
 * refusing them keeps JSON and form bodies alike and makes the answer explicit.
 */
const RESERVED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export function isReservedName(name: string): boolean {
  return RESERVED_NAMES.has(name);
}

function refusal(path: string): HttpError {
  return new HttpError(400, 'invalid_request', `Invalid parameter: ${path} uses a reserved name`);
}

/** Walks a parsed JSON value (depth already bounded by the caller) and refuses a reserved key. */
export function refuseReservedKeys(value: unknown, path = ''): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}[${key}]` : key;
    if (!Array.isArray(value) && isReservedName(key)) throw refusal(childPath);
    refuseReservedKeys(child, childPath);
  }
}

/**
 * Refuses a reserved name in a form key (`metadata[__proto__]=x`, `a.constructor` is no nesting
 * here). Looks at the decoded keys before the parser, which would drop such keys unnoticed.
 */
export function refuseReservedFormKeys(decodedKeys: Iterable<string>): void {
  for (const key of decodedKeys) {
    const segments = key.split(/[[\]]+/).filter((segment) => segment !== '');
    if (segments.some(isReservedName)) throw refusal(key);
  }
}
