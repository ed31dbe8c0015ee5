import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidRequestError } from '../domain/errors.ts';
import type { Collection, Document } from '../readstore/document-store.ts';
import { HttpError } from './errors.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * Idempotent POSTs: a request sent again with the same `Idempotency-Key` gets the first request's
 * response instead of running twice. Keys are scoped to the account and mode of the API key and to
 * its kind (secret or public), so a public key can neither claim nor probe a secret key's keys.
 *
 * The first request inserts a `pending` record (insert is atomic: exactly one request wins),
 * runs, and stores its status and body. A duplicate that arrives meanwhile waits for the record to
 * complete, then replays it. 5xx responses are not stored: the record is released so that a retry
 * runs again. The running request renews the pending record's heartbeat; a record whose heartbeat
 * stopped belongs to a process that died and is taken over. Running the request again is then safe
 * because commands are idempotent against the event log: the objects a request creates get ids
 * derived from its `requestToken`, so a second run finds what the first one committed.
 */

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const DIFFERENT_PARAMETERS_MESSAGE = 'Idempotent key used for request with different parameters.';

export interface StoredResponse {
  status: number;
  body: unknown;
  /** Headers the answer needs besides the usual ones (e.g. Retry-After of a 503). */
  headers?: Record<string, string>;
}

export interface IdempotencyRecord extends Document {
  state: 'pending' | 'completed';
  /** Identifies the request that claimed the key: see requestFingerprint. */
  fingerprint: string;
  /** When the current owner started running the request (ms since epoch). */
  startedAt: number;
  /** Last sign of life of the owner (ms since epoch); absent in records of older versions. */
  heartbeatAt?: number;
  response?: StoredResponse;
}

export interface IdempotencyScope extends Tenant {
  /** Kind of the API key that sent the request: public and secret keys have separate keys. */
  keyKind: 'secret' | 'public';
  key: string;
}

export interface IdempotencyOptions {
  /** How long a key is remembered; default 24 h. */
  ttlMs?: number;
  /** Key of the request fingerprints (HMAC-SHA256); stable across processes and restarts. */
  fingerprintKey: Buffer;
  /** How often a running request renews its pending record; default 1 s. */
  heartbeatMs?: number;
  /** A pending record without a heartbeat for this long belongs to a request that died; default 5 s. */
  staleAfterMs?: number;
  /** How long a duplicate waits for the first request to finish before giving up (409); default 30 s. */
  waitTimeoutMs?: number;
  pollIntervalMs?: number;
  now?: () => number;
}

export interface IdempotentOutcome {
  response: StoredResponse;
  /** True when the response is the stored one of an earlier request. */
  replayed: boolean;
}

export class IdempotencyStore {
  private readonly ttlMs: number;
  private readonly staleAfterMs: number;
  private readonly heartbeatMs: number;
  private readonly waitTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly now: () => number;
  private readonly fingerprintKey: Buffer;

  constructor(
    private readonly records: Collection<IdempotencyRecord>,
    options: IdempotencyOptions,
  ) {
    this.fingerprintKey = options.fingerprintKey;
    this.ttlMs = options.ttlMs ?? 24 * 3600_000;
    this.heartbeatMs = options.heartbeatMs ?? 1_000;
    this.staleAfterMs = options.staleAfterMs ?? 5_000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? 30_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.now = options.now ?? Date.now;
  }

  /** What identifies a request for this store: see requestFingerprint. */
  fingerprint(method: string, path: string, body: unknown): string {
    return requestFingerprint(method, path, body, this.fingerprintKey);
  }

  /**
   * Identifies one idempotent request (its key's scope and its fingerprint), the same in every
   * process and after restarts: commands derive the ids of the objects the request creates from it.
   * A key reused for other parameters after its record expired gives another token.
   */
  requestToken(scope: IdempotencyScope, fingerprint: string): string {
    return createHmac('sha256', this.fingerprintKey)
      .update(`request-token\n${recordId(scope)}\n${fingerprint}`)
      .digest('hex');
  }

  /** Runs `execute` once per key and fingerprint; every other call gets the stored response. */
  async run(
    scope: IdempotencyScope,
    fingerprint: string,
    execute: () => Promise<StoredResponse>,
  ): Promise<IdempotentOutcome> {
    const id = recordId(scope);
    const giveUpAt = this.now() + this.waitTimeoutMs;
    for (;;) {
      const claim = this.pendingRecord(id, fingerprint);
      if (await this.records.insert(claim))
        return { response: await this.runAndRecord(claim, execute), replayed: false };

      const existing = await this.records.get(id);
      // Gone since the insert failed (released after a 5xx, or expired): claim it again.
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint) throw new InvalidRequestError(DIFFERENT_PARAMETERS_MESSAGE);
      if (existing.state === 'completed' && existing.response) return { response: existing.response, replayed: true };
      if (this.isStale(existing) && (await this.takeOver(existing))) {
        const takeover = this.pendingRecord(id, fingerprint);
        await this.records.put(takeover);
        return { response: await this.runAndRecord(takeover, execute), replayed: false };
      }
      if (this.now() >= giveUpAt) {
        throw new HttpError(
          409,
          'invalid_request',
          'A request with this Idempotency-Key is still being processed; retry later.',
        );
      }
      await sleep(this.pollIntervalMs);
    }
  }

  private pendingRecord(id: string, fingerprint: string): IdempotencyRecord {
    const now = this.now();
    return {
      id,
      created: Math.floor(now / 1000),
      state: 'pending',
      fingerprint,
      startedAt: now,
      heartbeatAt: now,
      _expiresAt: now + this.ttlMs,
    };
  }

  private async runAndRecord(
    claim: IdempotencyRecord,
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    let response: StoredResponse;
    // Beats are chained and awaited before the record changes again, so none can land after it.
    let beats: Promise<unknown> = Promise.resolve();
    const heartbeat = setInterval(() => {
      // Best effort: a missed beat only lets a duplicate run the (idempotent) request again.
      beats = beats.then(() => this.records.put({ ...claim, heartbeatAt: this.now() })).catch(() => undefined);
    }, this.heartbeatMs);
    heartbeat.unref();
    try {
      response = await execute();
    } catch (error) {
      clearInterval(heartbeat);
      await beats;
      await this.records.delete(claim.id);
      throw error;
    }
    clearInterval(heartbeat);
    await beats;
    if (response.status >= 500) {
      await this.records.delete(claim.id);
      return response;
    }
    await this.records.put({ ...claim, state: 'completed', response, _expiresAt: this.now() + this.ttlMs });
    return response;
  }

  private isStale(record: IdempotencyRecord): boolean {
    return record.state === 'pending' && this.now() - (record.heartbeatAt ?? record.startedAt) > this.staleAfterMs;
  }

  /**
   * Of all the duplicates that find the same stale record, the one whose claim on that record
   * inserts first takes over. (Claim ids cannot collide with key ids, which start with an account id.)
   * The claim is for one stale period: a taker killed between its claim and its own record leaves
   * the record stale, and the next period's claim is open to the next retry instead of the key
   * waiting for its record to expire.
   */
  private takeOver(stale: IdempotencyRecord): Promise<boolean> {
    const period = Math.floor((this.now() - (stale.heartbeatAt ?? stale.startedAt)) / this.staleAfterMs);
    return this.records.insert(
      this.pendingRecord(`takeover:${stale.id}:${stale.startedAt}:${period}`, stale.fingerprint),
    );
  }
}

const recordId = (scope: IdempotencyScope): string => `${scope.accountId}:${scope.mode}:${scope.keyKind}:${scope.key}`;

/**
 * What makes two requests the same request: method, path and the parsed body, with object keys
 * in a canonical order and scalars compared as text, so that key order, and JSON or form spelling
 * of the same parameters (`"amount": 100` or `amount=100`), do not matter.
 */
export function requestFingerprint(method: string, path: string, body: unknown, key: Buffer): string {
  // Keyed: bodies may carry card numbers, whose few possible values an unkeyed hash would give away.
  return createHmac('sha256', key)
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return value === null || value === undefined ? 'null' : JSON.stringify(String(value));
}
