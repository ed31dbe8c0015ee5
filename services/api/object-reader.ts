import { PaymentDeclined } from '../../packages/commands/payment-declined.ts';
import { NotFoundError } from '../../packages/domain/errors.ts';
import type { ReadModels } from '../../packages/projection/read-models.ts';
import type { CreatedRange, Document, FieldValue } from '../../packages/readstore/document-store.ts';
import { publicObject } from '../../projections/views/object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface Tenant {
  accountId: string;
  mode: Mode;
}

export interface ListParameters {
  limit: number;
  startingAfterId?: string;
  endingBeforeId?: string;
  created?: CreatedRange;
}

/**
 * Reads API objects from the read models, always inside one tenant (`docs/architecture.md`,
 * "Tenancy"): another
 * account's or mode's object is reported exactly like a missing one.
 */
export class ObjectReader {
  constructor(
    private readonly readModels: ReadModels,
    private readonly readYourWritesTimeoutMs: number,
  ) {}

  /** `within` narrows further: e.g. a card must belong to the customer of the path. */
  async get(
    collection: string,
    objectName: string,
    id: string,
    tenant: Tenant,
    within: Record<string, FieldValue> = {},
  ): Promise<Record<string, unknown>> {
    const doc = await this.readModels.collection(collection).get(id);
    if (!doc || doc._accountId !== tenant.accountId || doc._mode !== tenant.mode)
      throw new NotFoundError(objectName, id);
    if (Object.entries(within).some(([field, value]) => doc[field] !== value)) throw new NotFoundError(objectName, id);
    return publicObject(doc);
  }

  /** Reads an object after a command, once the command's events are projected (read-your-writes). */
  async getAfter(
    position: number | null,
    collection: string,
    objectName: string,
    id: string,
    tenant: Tenant,
    within: Record<string, FieldValue> = {},
  ): Promise<Record<string, unknown>> {
    await this.caughtUp(position);
    return this.get(collection, objectName, id, tenant, within);
  }

  /**
   * Runs a payment command and reads its object; a declined payment is answered with its card
   * error only once the recorded (failed) object is readable.
   */
  async paymentAfter(
    run: () => Promise<{ id: string; position: number | null }>,
    collection: string,
    objectName: string,
    tenant: Tenant,
  ): Promise<Record<string, unknown>> {
    try {
      const outcome = await run();
      return await this.getAfter(outcome.position, collection, objectName, outcome.id, tenant);
    } catch (error) {
      if (!(error instanceof PaymentDeclined)) throw error;
      await this.caughtUp(error.outcome.position);
      throw error.cardError;
    }
  }

  /** Waits (bounded) until a command's events are projected. */
  async caughtUp(position: number | null): Promise<void> {
    if (position !== null) await this.readModels.waitFor(position, this.readYourWritesTimeoutMs);
  }

  async list(
    collection: string,
    tenant: Tenant,
    parameters: ListParameters,
    filter: Record<string, FieldValue | undefined> = {},
  ): Promise<{ list: Record<string, unknown>[]; hasMore: boolean }> {
    const equality: Record<string, FieldValue> = { _accountId: tenant.accountId, _mode: tenant.mode };
    for (const [field, value] of Object.entries(filter)) if (value !== undefined) equality[field] = value;
    const page = await this.readModels.collection<Document>(collection).list({
      filter: equality,
      limit: parameters.limit,
      ...(parameters.created ? { created: parameters.created } : {}),
      ...(parameters.startingAfterId ? { startingAfterId: parameters.startingAfterId } : {}),
      ...(parameters.endingBeforeId ? { endingBeforeId: parameters.endingBeforeId } : {}),
    });
    return { list: page.list.map(publicObject), hasMore: page.hasMore };
  }
}
