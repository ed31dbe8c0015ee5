import { InvalidRequestError, NotFoundError } from '../../packages/domain/errors.ts';
import type { ObjectCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import { customersCollection } from '../../projections/customers-projection.ts';
import type { PublicObject } from '../../projections/views/object-view.ts';
import type { FieldFilter, ListParameters, ObjectReader, ScopedDocument } from './object-reader.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';

/**
 * A list that may be narrowed to one customer with `?customerId=` (charges, credits,
 * subscriptions). The customer must exist in the caller's account and mode: an unknown one is a bad
 * parameter, 400 `invalid_request` naming it, never an empty list (docs/api.md, "Responses and errors").
 */
export async function listFilteredByCustomer<T extends ScopedDocument & { customerId: string | null }>(
  reader: ObjectReader,
  collection: ObjectCollection<T>,
  tenant: Tenant,
  { customerId, ...page }: ListParameters & { customerId?: string | undefined },
  filter: FieldFilter<T> = {},
): Promise<{ list: PublicObject<T>[]; hasMore: boolean }> {
  if (customerId !== undefined) {
    await reader.get(customersCollection, customerId, tenant).catch((error: unknown) => {
      throw error instanceof NotFoundError
        ? new InvalidRequestError(`Invalid parameter: customerId '${customerId}' does not exist`)
        : error;
    });
  }
  return reader.list(collection, tenant, page, { ...filter, customerId });
}
