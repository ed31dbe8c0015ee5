import qs from 'qs';
import { ProcessorOutcomeUnknown, ProcessorUnreachable } from '../processor.ts';
import type { StripeDeclineReason } from './stripe-declines.ts';
import { StripeRefused } from './stripe-failures.ts';

/**
 * Stripe's HTTP API as the adapter speaks it: form-encoded bodies, `Authorization: Bearer <secret
 * key>`, an `Idempotency-Key` on every creation, a pinned `Stripe-Version` so that the shapes read
 * here do not follow the account's default version. Node's fetch, with one timeout covering the
 * whole exchange (connecting, sending, the answer's body).
 *
 * Every way a call can end is sorted here:
 * - an answer (2xx): its JSON;
 * - a decline (402, Stripe's "request failed" status for card errors): `StripeDecline`;
 * - never sent (connection refused, DNS, TLS handshake): `ProcessorUnreachable`;
 * - maybe taken (timeout, connection reset, a 5xx, 409 "same key in progress", 424, 429, an answer
 *   that is not JSON): `ProcessorOutcomeUnknown`;
 * - refused (any other 4xx): `StripeRefused`.
 * Messages carry Stripe's own message, with anything like the secret key or a card number removed.
 */

export const STRIPE_API_VERSION = '2024-06-20';

/** The error object of a Stripe error answer. */
export interface StripeErrorObject extends StripeDeclineReason {
  type?: string;
  /** On a declined payment intent creation: the intent Stripe made (Stripe; localstripe omits it). */
  payment_intent?: { id: string } | null;
  /** The failed charge's id. */
  charge?: string | null;
}

/** A 402 answer: the card was declined; an answer, not a failure. */
export class StripeDecline extends Error {
  constructor(
    readonly error: StripeErrorObject,
    message: string,
  ) {
    super(message);
    this.name = 'StripeDecline';
  }
}

export interface StripeApiSettings {
  url: string;
  secretKey: string;
  timeoutMs: number;
}

type FormParams = Record<string, unknown>;

/** What every listed Stripe object has: its id and its creation time in whole seconds. */
export interface StripeListed {
  id: string;
  created: number;
}

interface StripeList<T> {
  data: T[];
  has_more: boolean;
}

/** Stripe's largest page. */
const PAGE_SIZE = 100;

/** Transport errors that happen before a request is written (nothing can have been taken). */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** 409: a request with the same key still in progress; 424: a dependency failed; 429: rate limited. */
const MAYBE_CARRIED_OUT = new Set([409, 424, 429]);
const TLS_FAILURE_CODE = /^(ERR_TLS_|ERR_SSL_)|CERT|SELF_SIGNED/;

export class StripeApi {
  private readonly baseUrl: string;

  constructor(private readonly settings: StripeApiSettings) {
    this.baseUrl = settings.url.replace(/\/+$/, '');
  }

  /** A creation or an action; `idempotencyKey` makes Stripe answer a repeat with its first answer. */
  post<T>(path: string, params: FormParams, idempotencyKey: string): Promise<T> {
    return this.send<T>('POST', path, params, idempotencyKey);
  }

  get<T>(path: string, params: FormParams = {}): Promise<T> {
    return this.send<T>('GET', path, params, null);
  }

  /**
   * Every object of a list endpoint, page by page. With `createdFrom`, paging stops after a page,
   * newest first as Stripe lists, that reaches objects created before it: older pages hold nothing
   * newer (a list in the other order, as localstripe's, is read to its end). Objects are yielded as
   * listed; the caller filters its window.
   */
  async *list<T extends StripeListed>(path: string, params: FormParams, createdFrom?: Date): AsyncGenerator<T> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.get<StripeList<T>>(path, {
        ...params,
        limit: PAGE_SIZE,
        ...(startingAfter ? { starting_after: startingAfter } : {}),
      });
      yield* page.data;
      const [first, last] = [page.data.at(0), page.data.at(-1)];
      if (!page.has_more || !first || !last) return;
      const newestFirst = first.created >= last.created;
      if (createdFrom && newestFirst && last.created * 1000 < createdFrom.getTime()) return;
      startingAfter = last.id;
    }
  }

  private async send<T>(
    method: 'GET' | 'POST',
    path: string,
    params: FormParams,
    idempotencyKey: string | null,
  ): Promise<T> {
    const what = `${method} ${path}`;
    const form = qs.stringify(params, { arrayFormat: 'indices' });
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.settings.secretKey}`,
      'stripe-version': STRIPE_API_VERSION,
      accept: 'application/json',
    };
    if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const url = method === 'GET' && form ? `${this.baseUrl}${path}?${form}` : `${this.baseUrl}${path}`;

    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: method === 'POST' ? form : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw this.transportFailure(what, error);
    }

    const body = parseJson(text);
    if (status >= 200 && status < 300) {
      if (body === undefined) {
        throw new ProcessorOutcomeUnknown(`Stripe answered ${what} with ${status} and a body that is not JSON`);
      }
      return body as T;
    }
    const error = errorObjectOf(body);
    const message = this.clean(`Stripe answered ${what} with ${status}: ${error.message ?? 'no message'}`);
    if (status === 402) throw new StripeDecline(error, message);
    if (status >= 500 || MAYBE_CARRIED_OUT.has(status) || body === undefined) {
      throw new ProcessorOutcomeUnknown(message);
    }
    throw new StripeRefused(message, status, error.code ?? null);
  }

  private transportFailure(what: string, error: unknown): Error {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new ProcessorOutcomeUnknown(
        `Stripe did not answer ${what} within ${this.settings.timeoutMs} ms: the request may have been carried out`,
      );
    }
    const codes = errorCodes(error);
    const neverSent = codes.find((code) => NEVER_SENT_CODES.has(code) || TLS_FAILURE_CODE.test(code));
    if (neverSent) {
      return new ProcessorUnreachable(this.clean(`Stripe could not be reached for ${what} (${neverSent})`), {
        cause: error,
      });
    }
    const reason = codes[0] ?? (error instanceof Error ? error.message : String(error));
    return new ProcessorOutcomeUnknown(
      this.clean(`The connection to Stripe failed during ${what} (${reason}): the request may have been carried out`),
      { cause: error },
    );
  }

  /** Stripe's messages can echo parameters: never let the key or a card number through. */
  private clean(message: string): string {
    const { secretKey } = this.settings;
    const withoutKey = secretKey ? message.split(secretKey).join('[secret key]') : message;
    return withoutCardNumbers(withoutKey);
  }
}

/** Digit runs as long as a card number (spaces and dashes allowed) replaced. */
export function withoutCardNumbers(text: string): string {
  return text.replace(/\d(?:[ -]?\d){11,18}/g, '[number]');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorObjectOf(body: unknown): StripeErrorObject {
  const error = (body as { error?: unknown } | undefined)?.error;
  return error && typeof error === 'object' ? (error as StripeErrorObject) : {};
}

/** The `code`s of an error and its causes (fetch wraps the socket's error; happy eyeballs aggregates). */
function errorCodes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== 'object' || depth > 4) return [];
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof code === 'string' ? [code] : [];
  const nested = Array.isArray(errors) ? errors.flatMap((inner) => errorCodes(inner, depth + 1)) : [];
  return [...own, ...errorCodes(cause, depth + 1), ...nested];
}
