import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  DestinationRefused,
  resolveDestination,
  systemResolver,
  type HostResolver,
  type ResolvedAddress,
} from './webhook-destination.ts';
import type { Mode } from '../domain/mode.ts';

export interface WebhookRequest {
  url: string;
  /** The endpoint's mode decides which destinations are allowed. */
  mode: Mode;
  body: string;
  headers: Record<string, string>;
  /** The whole attempt (resolution, connection, TLS, status line) must fit in it. */
  timeoutMs: number;
}

/** The outcome of one attempt. */
export interface WebhookAnswer {
  /** HTTP status of the answer; null when none arrived in time. */
  statusCode: number | null;
  durationMs: number;
  /** Why no answer arrived (refused destination, connection error, timeout); null when one did. */
  error: string | null;
}

export const USER_AGENT = 'card-payments-webhooks/1.0';

const NO_ANSWER_WITHIN = 'no answer within';

/** Whether an attempt ended because its time ran out (it held its socket the whole time), not by an answer or an error. */
export const timedOut = (answer: WebhookAnswer): boolean =>
  answer.statusCode === null && (answer.error?.startsWith(NO_ANSWER_WITHIN) ?? false);

/**
 * POSTs one webhook request. Redirects are never followed (a 3xx is just a failed attempt), and
 * the connection goes to the address that `resolveDestination` checked. Never throws: every
 * failure is an answer without a status code.
 */
export function sendWebhook(request: WebhookRequest, resolver: HostResolver = systemResolver): Promise<WebhookAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let outgoing: http.ClientRequest | null = null;
    let settled = false;
    const finish = (statusCode: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Without an answer the connection is of no further use; with one, it is drained and closed.
      if (statusCode === null) outgoing?.destroy();
      resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(() => finish(null, `${NO_ANSWER_WITHIN} ${request.timeoutMs} ms`), request.timeoutMs);

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      finish(null, 'invalid url');
      return;
    }
    resolveDestination(url, request.mode, resolver).then(
      (destination) => {
        if (settled) return;
        const client = url.protocol === 'https:' ? https : http;
        outgoing = client.request(url, {
          method: 'POST',
          headers: {
            ...request.headers,
            'content-length': String(Buffer.byteLength(request.body)),
            'user-agent': USER_AGENT,
          },
          // A fresh connection per attempt: a pooled socket could lead to an address checked for another request.
          agent: false,
          lookup: pinnedLookup(destination),
        });
        outgoing.once('response', (response) => {
          finish(response.statusCode ?? null, null);
          // The body is not needed: read it away so the connection closes cleanly, but not forever.
          const drainTimer = setTimeout(() => response.destroy(), request.timeoutMs);
          drainTimer.unref();
          response.once('close', () => clearTimeout(drainTimer));
          response.on('error', () => undefined);
          response.resume();
        });
        // `on`: destroying the request may report a second error, which must not go unhandled.
        outgoing.on('error', (error: NodeJS.ErrnoException) => finish(null, describeError(error)));
        outgoing.end(request.body);
      },
      (error: unknown) =>
        finish(null, error instanceof DestinationRefused ? error.message : 'destination could not be resolved'),
    );
  });
}

/** Answers every name lookup of the connection with the address that was checked. */
function pinnedLookup(destination: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  }) as unknown as LookupFunction;
}

/** A short description without internals (the receiver's owner reads it). */
function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      if (error.code && /CERT|TLS|SSL/.test(error.code)) return `TLS error (${error.code})`;
      return error.code ? `request failed (${error.code})` : 'request failed';
  }
}
