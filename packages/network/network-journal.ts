import type { Collection, Document } from '../readstore/document-store.ts';
import type { Mode } from '../domain/mode.ts';

/**
 * The simulated network's memory of what it answered, by the merchant's reference (a charge's
 * authorization, a credit's transfer): what lets it answer a repeated request with the first
 * answer, and tell after a crash of the service what happened to a request. A real acquirer keeps
 * this on its side.
 */
export interface NetworkJournal<Outcome> {
  find(mode: Mode, reference: string): Promise<Outcome | null>;
  /** Records an answer; of two racing records of one reference, the first one stays and is returned. */
  record(mode: Mode, reference: string, outcome: Outcome): Promise<Outcome>;
}

/** For unit tests and tools: forgotten with the process. */
export class InMemoryNetworkJournal<Outcome> implements NetworkJournal<Outcome> {
  private readonly answers = new Map<string, Outcome>();

  async find(mode: Mode, reference: string): Promise<Outcome | null> {
    return this.answers.get(`${mode}:${reference}`) ?? null;
  }

  async record(mode: Mode, reference: string, outcome: Outcome): Promise<Outcome> {
    const key = `${mode}:${reference}`;
    const first = this.answers.get(key) ?? outcome;
    this.answers.set(key, first);
    return first;
  }
}

interface JournalEntry<Outcome> extends Document {
  outcome: Outcome;
}

/** How long answers are kept: longer than the longest idempotency window (IDEMPOTENCY_TTL_HOURS, at most 30 days). */
export const NETWORK_JOURNAL_KEPT_MS = 31 * 24 * 3600_000;

/**
 * Kept in a collection of the operational state store (MongoDB in the distributed profile; the
 * embedded profile keeps its journal in the events file, `event-file-network-journal.ts`), each
 * answer durable before it is returned: it survives a kill -9 of the service like the event log
 * does. Entries are forgotten after 31 days, when no retry of their request can come any more.
 */
export class StoredNetworkJournal<Outcome> implements NetworkJournal<Outcome> {
  constructor(private readonly entries: Collection<JournalEntry<Outcome>>) {}

  async find(mode: Mode, reference: string): Promise<Outcome | null> {
    return (await this.entries.get(`${mode}:${reference}`))?.outcome ?? null;
  }

  async record(mode: Mode, reference: string, outcome: Outcome): Promise<Outcome> {
    const id = `${mode}:${reference}`;
    const now = Date.now();
    if (
      await this.entries.insert({
        id,
        created: Math.floor(now / 1000),
        outcome,
        _expiresAt: now + NETWORK_JOURNAL_KEPT_MS,
      })
    )
      return outcome;
    return (await this.find(mode, reference)) ?? outcome;
  }
}
