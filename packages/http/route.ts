import type { ZodType } from 'zod';
import type { Mode } from '../domain/mode.ts';

/** Who is calling: the API key selects the account and the mode (`docs/architecture.md`, "Tenancy"). */
export interface AuthContext {
  accountId: string;
  mode: Mode;
  keyId: string;
  keyKind: 'secret' | 'public';
}

/** What a route handler receives: the caller and the request's validated parameters. */
export interface RequestContext<P, Q, B> {
  auth: AuthContext;
  params: P;
  query: Q;
  body: B;
  requestId: string;
  /** The `Idempotency-Key` header of a POST; commands record it in their events' metadata. */
  idempotencyKey?: string;
  /** With an `Idempotency-Key`: identifies the request across retries and crashes (`IdempotencyStore.requestToken`). */
  requestToken?: string;
  /** Request headers by lower-case name (Authorization excluded). */
  headers: Record<string, string | undefined>;
  ip: string;
}

export interface RouteDefinition<P, Q, B> {
  method: 'get' | 'post' | 'delete';
  /** Express style, e.g. `/customers/:customerId`. */
  path: string;
  /** For the OpenAPI document. */
  summary: string;
  tag: string;
  /** Which keys may call the route; default `secret`. */
  auth?: 'secret' | 'publicOrSecret';
  /** Absent schemas accept nothing: any query or body parameter is then an unknown parameter. */
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** The documented 200 response. */
  response: ZodType;
  /** Returns the 200 JSON body. Throws domain errors for failures. */
  handler(ctx: RequestContext<P, Q, B>): Promise<unknown>;
}

/** A route of any parameter types, as the app and the OpenAPI builder take them. */
export type AnyRouteDefinition = RouteDefinition<unknown, unknown, unknown>;

/** Identity function that lets TypeScript infer P, Q and B from the schemas. */
export function defineRoute<P, Q, B>(def: RouteDefinition<P, Q, B>): RouteDefinition<P, Q, B> {
  return def;
}
