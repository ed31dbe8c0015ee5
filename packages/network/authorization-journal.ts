import type { Collection, Document } from '../readstore/document-store.ts';
import type { AuthorizationOutcome } from './card-network.ts';
import type { Mode } from '../domain/mode.ts';

/**
 * The simulated network's memory of the authorizations it answered, by the merchant's reference:
 * what lets it answer a repeated authorization with the first answer, and tell after a crash of
 * the service what happened to an authorization. A real acquirer keeps this on its side.
 */
export interface AuthorizationJournal {
  find(mode: Mode, reference: string): Promise<AuthorizationOutcome | null>;
  /** Records an answer; of two racing records of one reference, the first one stays and is returned. */
  record(mode: Mode, reference: string, outcome: AuthorizationOutcome): Promise<AuthorizationOutcome>;
}

/** For unit tests and tools: forgotten with the process. */
export class InMemoryAuthorizationJournal implements AuthorizationJournal {
  private readonly answers = new Map<string, AuthorizationOutcome>();

  async find(mode: Mode, reference: string): Promise<AuthorizationOutcome | null> {
    return this.answers.get(`${mode}:${reference}`) ?? null;
  }

  async record(mode: Mode, reference: string, outcome: AuthorizationOutcome): Promise<AuthorizationOutcome> {
    const key = `${mode}:${reference}`;
    const first = this.answers.get(key) ?? outcome;
    this.answers.set(key, first);
    return first;
  }
}

interface JournalEntry extends Document {
  outcome: AuthorizationOutcome;
}

/** Longer than the longest idempotency window (IDEMPOTENCY_TTL_HOURS, at most 30 days). */
const KEPT_MS = 31 * 24 * 3600_000;

/**
 * Kept in a collection of the operational state store (`state.sqlite`, written with full
 * synchronisation, or MongoDB): it survives a kill -9 of the service like the event log does.
 * Entries are forgotten after 31 days, when no retry of their request can come any more.
 */
export class StoredAuthorizationJournal implements AuthorizationJournal {
  constructor(private readonly entries: Collection<JournalEntry>) {}

  async find(mode: Mode, reference: string): Promise<AuthorizationOutcome | null> {
    return (await this.entries.get(`${mode}:${reference}`))?.outcome ?? null;
  }

  async record(mode: Mode, reference: string, outcome: AuthorizationOutcome): Promise<AuthorizationOutcome> {
    const id = `${mode}:${reference}`;
    const now = Date.now();
    if (await this.entries.insert({ id, created: Math.floor(now / 1000), outcome, _expiresAt: now + KEPT_MS }))
      return outcome;
    return (await this.find(mode, reference)) ?? outcome;
  }
}
