import type { ChargePending } from '../packages/domain/charge/payment-method-charge.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { objectCollection, ownedCollections } from '../packages/projection-runtime/read-model-collection.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from './event-time.ts';

/** Which charge a client object id (`client_char_…`) names, and whose it is. */
export interface ClientObjectDoc extends TenantScope {
  id: string;
  created: number;
  objectType: 'charge';
  chargeId: string;
}

/**
 * Client object ids by their own id: the redirect page (no API key, so no tenant to scope a query
 * by) and GET /client-objects find a payment-method charge with one key lookup.
 */
export const clientObjectsCollection = objectCollection<ClientObjectDoc>('client_objects', 'Client object');

/** `client-objects`: one document per payment-method charge, from its `ChargePending`. */
export const clientObjectsProjection: Projection = {
  name: 'client-objects',
  collections: ownedCollections(clientObjectsCollection),
  handles: (type) => type === 'ChargePending',
  apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = recorded as RecordedEvent & ChargePending;
    tx.put(clientObjectsCollection, {
      id: event.data.clientObjectId,
      created: occurredAtSeconds(event),
      objectType: 'charge',
      chargeId: event.data.chargeId,
      ...tenantFields(event),
    });
    return Promise.resolve();
  },
};
