import type { ResourceIdentity } from '../../packages/domain/resource-identity.ts';
import type { Projection } from '../../packages/projection-runtime/projection.ts';
import type { HostedObjects, PublicObjectEvents } from '../../projections/read-side.ts';
import { isViewProjection, type ViewProjection } from '../../projections/view-projection.ts';
import type { PublicEventCatalog } from '../api/schemas/event-schemas.ts';
import type { ObjectResources } from '../api/object-streams.ts';
import { resourceModules } from './index.ts';
import type { ResourceModule } from './resource-module.ts';

/*
 * Every registry of the service that is not the commands' (`services/resource-commands.ts`) or the
 * routes' (`services/api/routes/index.ts`), derived from the resource list, in its order.
 */

type Modules = typeof resourceModules;

/** Every public event type (spec: Events), as the resources' read sides declare them. */
export type PublicEventType = PublicEventTypes<Modules>[number];

type PublicEventTypes<List extends readonly ResourceModule[]> = {
  [Index in keyof List]: List[Index] extends ResourceModule
    ? List[Index]['readSide']['publicEvents'] extends PublicObjectEvents<infer Type>
      ? Type
      : never
    : never;
};

/**
 * The public events of every kind of object that appears as event `data`, in the order of the
 * resource list. `docs/events.md` is the human-readable copy; a test keeps both in step.
 */
export const publicObjects: readonly PublicObjectEvents<PublicEventType>[] = resourceModules.flatMap(
  ({ readSide }): PublicObjectEvents<PublicEventType>[] => (readSide.publicEvents ? [readSide.publicEvents] : []),
);

/** Every public event type, in documentation order (the resource list's). */
export const publicEventTypeNames = [...new Set(publicObjects.flatMap((object) => object.types))] as [
  PublicEventType,
  ...PublicEventType[],
];

/** Every public event type and the schema of every kind of object their `data` may be: what the API says of them. */
export const publicEventCatalog: PublicEventCatalog = {
  types: publicEventTypeNames,
  dataSchemas: nonEmpty(
    resourceModules.flatMap(({ eventData }) => (eventData ? [eventData] : [])),
    'event data schemas',
  ),
};

const projections: readonly Projection[] = resourceModules.flatMap(({ readSide: { projections } }) =>
  typeof projections === 'function' ? projections(publicObjects) : projections,
);

/** Every read model of the service, resource by resource (`npm run cli -- projections rebuild <name>`). */
export const allProjections = (): Projection[] => [...projections];

/** The view projection of each object collection, by collection name: what as-of reads and the replay fold. */
export const viewProjections: ReadonlyMap<string, ViewProjection> = new Map(
  projections.filter(isViewProjection).map((projection) => [projection.collection.name, projection]),
);

/** Each resource by the prefix of its ids, with where its objects are read when they live in another's streams. */
const resourcesByIdPrefix = new Map<string, { identity: ResourceIdentity; hosted: HostedObjects | null }>(
  resourceModules.map(({ identity, readSide }) => [
    identity.idPrefix,
    { identity, hosted: 'hosted' in readSide ? readSide.hosted : null },
  ]),
);

/** What the history and as-of reads of objects know of the resources. */
export const objectResources: ObjectResources = {
  resourceOf: (objectId) => resourcesByIdPrefix.get(objectId.split('_')[0] ?? '') ?? null,
  viewProjections,
};

function nonEmpty<Item>(items: Item[], what: string): [Item, ...Item[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error(`The resource list has no ${what}`);
  return [first, ...rest];
}
