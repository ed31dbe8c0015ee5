import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import { p } from './params.ts';
import type { AnyRouteDefinition } from './route.ts';
import { validateParameters } from './validation.ts';

/**
 * As-of reads (`docs/api.md`, "Object history and as-of reads"): every route that retrieves one
 * object (a GET whose path ends in its id) also takes `asOf`, a Unix time; the object is then
 * answered as it stood at that time, folded from its stream. The kit takes the parameter out of
 * the query before the route's own schema sees it and keeps it for the reads of that request.
 */
export const asOfQuery = z.object({
  asOf: p
    .timestamp({
      description: 'Answer the object as it stood at this Unix time (seconds), folded from its event stream',
    })
    .optional(),
});

/** A GET of one object: its path ends in a parameter (`/charges/:chargeId`). */
export const readsOneObject = (route: AnyRouteDefinition): boolean =>
  route.method === 'get' && /\/:\w+$/.test(route.path);

const requestedTime = new AsyncLocalStorage<number>();

/**
 * Splits `asOf` off the query of a one-object read; the rest is what the route's schema checks.
 * Any other route leaves the query alone (there `asOf` is an unknown parameter).
 */
export function takeAsOf(route: AnyRouteDefinition, query: unknown): { asOf: number | undefined; rest: unknown } {
  if (!readsOneObject(route) || typeof query !== 'object' || query === null || !('asOf' in query))
    return { asOf: undefined, rest: query };
  const { asOf, ...rest } = query as Record<string, unknown>;
  return { asOf: validateParameters(asOfQuery, { asOf }).asOf, rest };
}

/** Runs the route's handler with the time its reads are as of (none: the current state). */
export function readingAsOf<T>(asOf: number | undefined, run: () => T): T {
  return asOf === undefined ? run() : requestedTime.run(asOf, run);
}

/** The Unix time the request being served reads as of, or undefined for the current state. */
export const requestedAsOf = (): number | undefined => requestedTime.getStore();
