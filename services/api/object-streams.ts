import { NotFoundError } from '../../packages/domain/errors.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import { hasOwnStreams, streamName, type ResourceIdentity } from '../../packages/domain/resource-identity.ts';
import type { EventLog, RecordedEvent } from '../../packages/eventstore/event-log.ts';
import { upcastRecordedEvent } from '../../packages/eventstore/upcast-recorded-event.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import type { ReadModelCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds } from '../../projections/event-time.ts';
import type { HostedObjects } from '../../projections/read-side.ts';
import { foldObject, type ViewProjection } from '../../projections/view-projection.ts';

/** What object streams know of the resources, derived from the resource list (`services/resources/registries.ts`). */
export interface ObjectResources {
  /**
   * The resource an object id names (by its prefix), with where its objects are read when they
   * live in another resource's streams; null for an id of no resource.
   */
  resourceOf(objectId: string): { identity: ResourceIdentity; hosted: HostedObjects | null } | null;
  /** The view projection of each object collection, by collection name: what as-of reads fold. */
  viewProjections: ReadonlyMap<string, ViewProjection>;
}

/** The events of one object as its tenant may see them, upcast to their current shape. */
export interface ObjectStream {
  streamId: string;
  /** The object's events, oldest first: its whole stream, or for a contained object those about it. */
  events: RecordedEvent[];
}

/**
 * Objects read from their event streams, for auditors (`docs/audit.md`): an object's history, and
 * the object as it stood at a past time, folded with the view its read model is built with. A
 * stream belongs to the tenant of its first event; another tenant's object is a 404 like a
 * missing one.
 */
export class ObjectStreams {
  constructor(
    private readonly events: EventLog,
    private readonly readModels: ReadModels,
    private readonly resources: ObjectResources,
  ) {}

  /** The object's events, or NotFoundError when the tenant has no such object. */
  async history(objectId: string, tenant: Tenant): Promise<ObjectStream> {
    const resource = this.resources.resourceOf(objectId);
    if (resource && hasOwnStreams(resource.identity)) {
      const streamId = streamName(resource.identity, objectId);
      return { streamId, events: await this.tenantStream(streamId, tenant, objectId) };
    }
    const host = resource?.identity.stream;
    if (resource?.hosted && typeof host === 'object' && host !== null) {
      const found = await resource.hosted.find(this.readModels, objectId);
      if (found) {
        const streamId = streamName(host, found.hostId);
        const view = this.resources.viewProjections.get(resource.hosted.collection.name)?.view;
        const events = await this.tenantStream(streamId, tenant, objectId);
        return {
          streamId,
          events: events.filter((event) => !view || (view.accepts(event) && view.objectId(event) === objectId)),
        };
      }
    }
    throw new NotFoundError('Object', objectId);
  }

  /**
   * The object as it stood at `asOf` (Unix seconds of business time, the events' `occurredAt`),
   * folded from its stream by the view of its collection: exactly the document its read model
   * held then. NotFoundError when it did not exist yet or is not the tenant's.
   */
  async asOf<Doc extends Document>(
    collection: ReadModelCollection<Doc> & { objectName: string },
    objectId: string,
    tenant: Tenant,
    asOf: number,
  ): Promise<Doc> {
    const projection = this.resources.viewProjections.get(collection.name);
    const object = projection
      ? foldObject(projection.view, objectId, await this.eventsUntil(collection, objectId, tenant, asOf))
      : // Objects without a view of their own (public events) never change once recorded.
        await this.immutableAsOf(collection, objectId, asOf);
    if (!object) throw new NotFoundError(collection.objectName, objectId);
    return object as Doc;
  }

  /** The tenant an object belongs to (the CLI reads for no tenant in particular); null when there is no such object. */
  async tenantOf(objectId: string): Promise<Tenant | null> {
    const resource = this.resources.resourceOf(objectId);
    if (resource && hasOwnStreams(resource.identity)) {
      const [first] = await this.events.readStream(streamName(resource.identity, objectId), { maxCount: 1 });
      return first ? { accountId: first.metadata.accountId, mode: first.metadata.mode } : null;
    }
    const found = await resource?.hosted?.find(this.readModels, objectId);
    const scope = found?.doc as { _accountId?: string; _mode?: Tenant['mode'] } | undefined;
    return scope?._accountId && scope._mode ? { accountId: scope._accountId, mode: scope._mode } : null;
  }

  /**
   * The object as it stood at `asOf`, folded by the view that renders it (the one that folds its
   * events under its id); null when it did not exist then or no view renders it.
   */
  async objectAsOf(objectId: string, tenant: Tenant, asOf: number): Promise<Document | null> {
    const { events } = await this.history(objectId, tenant);
    const projection = [...this.resources.viewProjections.values()].find(({ view }) =>
      events.some((event) => view.accepts(event) && view.objectId(event) === objectId),
    );
    if (!projection) return null;
    return foldObject(
      projection.view,
      objectId,
      events.filter((event) => occurredAtSeconds(event) <= asOf),
    );
  }

  private async eventsUntil(
    collection: { objectName: string },
    objectId: string,
    tenant: Tenant,
    asOf: number,
  ): Promise<RecordedEvent[]> {
    const { events } = await this.history(objectId, tenant).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError(collection.objectName, objectId) : error;
    });
    return events.filter((event) => occurredAtSeconds(event) <= asOf);
  }

  private async immutableAsOf<Doc extends Document>(
    collection: ReadModelCollection<Doc>,
    objectId: string,
    asOf: number,
  ): Promise<Doc | null> {
    const doc = await this.readModels.collection(collection).get(objectId);
    return doc && typeof doc.created === 'number' && doc.created <= asOf ? doc : null;
  }

  private async tenantStream(streamId: string, tenant: Tenant, objectId: string): Promise<RecordedEvent[]> {
    const events = await this.events.readStream(streamId);
    const owner = events[0]?.metadata;
    if (!owner || owner.accountId !== tenant.accountId || owner.mode !== tenant.mode)
      throw new NotFoundError('Object', objectId);
    return events.map(upcastRecordedEvent);
  }
}
