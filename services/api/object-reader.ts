import { requestedAsOf } from '../../packages/http/as-of.ts';
import { PaymentDeclined } from '../../packages/commands/payment-declined.ts';
import { NotFoundError } from '../../packages/domain/errors.ts';
import { HttpError } from '../../packages/http/errors.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import type { ObjectCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import type { CreatedRange, Document, FieldValue } from '../../packages/readstore/document-store.ts';
import { publicObject, type PublicObject } from '../../projections/views/object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import type { ObjectStreams } from './object-streams.ts';

/** A document of a tenant's object: every query filters on its scope. */
export interface ScopedDocument extends Document {
  _accountId: string;
  _mode: Mode;
}

/** Equality conditions on fields of a document type (undefined: no condition). */
export type FieldFilter<T> = { [Field in Extract<keyof T, string>]?: FieldValue | undefined };

export interface ListParameters {
  limit: number;
  startingAfterId?: string;
  endingBeforeId?: string;
  created?: CreatedRange;
}

/**
 * Reads API objects from the read models, always inside one tenant (`docs/architecture.md`,
 * "Tenancy"): another account's or mode's object is reported exactly like a missing one.
 */
export class ObjectReader {
  /** Set once the read models hold every event the log had when this process first read. */
  private startupCaughtUp = false;
  private startupWait: Promise<boolean> | null = null;

  constructor(
    private readonly readModels: ReadModels,
    private readonly readYourWritesTimeoutMs: number,
    private readonly streams: ObjectStreams,
    /** The log's head position now: reads wait for the read models to reach it once, after a start. */
    private readonly logHead: () => Promise<number>,
  ) {}

  /**
   * Whether reads may be answered: after a start (a restart after a crash, a new replica) the
   * projector may still be applying the tail of the log, and an answer from there would show an
   * object as it was before writes that were acknowledged earlier. Waits (bounded) the first time.
   */
  async readsCaughtUp(): Promise<boolean> {
    if (this.startupCaughtUp) return true;
    this.startupWait ??= this.logHead().then((head) => this.readModels.waitFor(head, this.readYourWritesTimeoutMs));
    const caughtUp = await this.startupWait.catch(() => false);
    if (caughtUp) this.startupCaughtUp = true;
    // Not yet: the next read asks for the head again.
    else this.startupWait = null;
    return caughtUp;
  }

  private async startupReads(): Promise<void> {
    if (this.startupCaughtUp || (await this.readsCaughtUp())) return;
    throw catchingUp();
  }

  /**
   * `within` narrows further: e.g. a card must belong to the customer of the path. A request with
   * `asOf` (packages/http/as-of.ts) reads the object as it stood then, folded from its stream.
   */
  async get<T extends ScopedDocument>(
    collection: ObjectCollection<T>,
    id: string,
    tenant: Tenant,
    within: FieldFilter<T> = {},
  ): Promise<PublicObject<T>> {
    if (!this.startupCaughtUp) await this.startupReads();
    const asOf = requestedAsOf();
    let doc =
      asOf === undefined
        ? await this.readModels.collection(collection).get(id)
        : await this.streams.asOf(collection, id, tenant, asOf);
    // Missing, maybe only from a build a rebuild has just replaced: read again from the new one.
    if (!doc && asOf === undefined && (await this.readModels.switchedSinceLastLook()))
      doc = await this.readModels.collection(collection).get(id);
    if (!doc || doc._accountId !== tenant.accountId || doc._mode !== tenant.mode || !matches(doc, within)) {
      throw new NotFoundError(collection.objectName, id);
    }
    return publicObject(doc);
  }

  /**
   * Reads an object after a command, once the command's events are projected (read-your-writes).
   * The command has just recorded the object, or found it recorded by an earlier run of the same
   * request (position null): missing from the read models, it is not yet projected (a projector
   * restarting), not absent. That is answered 503, which a retry with the same Idempotency-Key
   * completes, never 404, which the key would keep as the request's answer.
   */
  async getAfter<T extends ScopedDocument>(
    position: number | null,
    collection: ObjectCollection<T>,
    id: string,
    tenant: Tenant,
    within: FieldFilter<T> = {},
  ): Promise<PublicObject<T>> {
    const caughtUp = await this.caughtUp(position);
    try {
      return await this.get(collection, id, tenant, within);
    } catch (error) {
      if (!(error instanceof NotFoundError) || (position !== null && caughtUp)) throw error;
    }
    // Recorded by an earlier run: read again once the read models hold the log as it is now.
    if (!caughtUp || !(await this.readModels.waitFor(await this.logHead(), this.readYourWritesTimeoutMs)))
      // "Does not exist" would tell the client that a write it made did not happen.
      throw recordedNotReadableYet();
    return this.get(collection, id, tenant, within);
  }

  /**
   * Runs a payment command and reads its object; a declined payment is answered with its card
   * error only once the recorded (failed) object is readable.
   */
  async paymentAfter<T extends ScopedDocument>(
    run: () => Promise<{ id: string; position: number | null }>,
    collection: ObjectCollection<T>,
    tenant: Tenant,
  ): Promise<PublicObject<T>> {
    try {
      const outcome = await run();
      return await this.getAfter(outcome.position, collection, outcome.id, tenant);
    } catch (error) {
      if (!(error instanceof PaymentDeclined)) throw error;
      await this.caughtUp(error.outcome.position);
      throw error.cardError;
    }
  }

  /** Waits (bounded) until a command's events are projected; false when the wait ran out. */
  async caughtUp(position: number | null): Promise<boolean> {
    // On timeout the answer is read anyway: during a rebuild's switch made by another process this
    // process's view of the checkpoints lags behind documents that are already readable.
    return position === null || (await this.readModels.waitFor(position, this.readYourWritesTimeoutMs));
  }

  async list<T extends ScopedDocument>(
    collection: ObjectCollection<T>,
    tenant: Tenant,
    parameters: ListParameters,
    filter: FieldFilter<T> = {},
  ): Promise<{ list: PublicObject<T>[]; hasMore: boolean }> {
    await this.startupReads();
    const equality: Record<string, FieldValue> = { _accountId: tenant.accountId, _mode: tenant.mode };
    for (const [field, value] of Object.entries(filter)) if (value !== undefined) equality[field] = value;
    const page = await this.readModels.collection(collection).list({
      filter: equality,
      limit: parameters.limit,
      ...(parameters.created ? { created: parameters.created } : {}),
      ...(parameters.startingAfterId ? { startingAfterId: parameters.startingAfterId } : {}),
      ...(parameters.endingBeforeId ? { endingBeforeId: parameters.endingBeforeId } : {}),
    });
    return { list: page.list.map(publicObject), hasMore: page.hasMore };
  }
}

/** Whether every condition holds on the document. */
function matches<T extends object>(doc: T, conditions: FieldFilter<T>): boolean {
  const fields = new Map<string, unknown>(Object.entries(doc));
  return Object.entries(conditions).every(([field, value]) => value === undefined || fields.get(field) === value);
}

/** The read models have not applied the log far enough to answer yet: retryable, never stored for an Idempotency-Key. */
function catchingUp(): HttpError {
  return new HttpError(503, 'gateway_error', 'The service is catching up with its event log; retry shortly.', {
    'Retry-After': '1',
  });
}

/** A command's object whose events are recorded but that no read model shows yet: retryable, never stored either. */
function recordedNotReadableYet(): HttpError {
  return new HttpError(
    503,
    'gateway_error',
    'The request was recorded but its result cannot be read yet; send it again with the same Idempotency-Key, or read the object shortly.',
    { 'Retry-After': '1' },
  );
}
