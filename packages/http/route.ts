import type { ZodType } from 'zod';
import type { Mode } from '../domain/mode.ts';
import type { UploadedFile } from './multipart-body.ts';

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
  /** Request headers by lower-case name (Authorization excluded). */
  headers: Record<string, string | undefined>;
  ip: string;
  /** The uploaded file of a route with `upload` (absent when the request carried none). */
  file?: UploadedFile;
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
  /**
   * A file upload: the body is `multipart/form-data`, its text fields validated by `body`, its
   * one file part (named `fileField`, at most `maxFileBytes`, else 413) given as `file`.
   */
  upload?: { fileField: string; maxFileBytes: number };
  /** The documented 200 response. */
  response: ZodType;
  /** Returns the 200 JSON body. Throws domain errors for failures. */
  handler(ctx: RequestContext<P, Q, B>): Promise<unknown>;
}

/** A route of any parameter types, as the app and the OpenAPI builder take them. */
export type AnyRouteDefinition = RouteDefinition<unknown, unknown, unknown>;

/** A 200 answer that is a file's bytes rather than JSON (a route's `response` then documents nothing checked). */
export class FileDownload {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
    readonly filename: string,
  ) {}
}

/** Identity function that lets TypeScript infer P, Q and B from the schemas. */
export function defineRoute<P, Q, B>(def: RouteDefinition<P, Q, B>): RouteDefinition<P, Q, B> {
  return def;
}
