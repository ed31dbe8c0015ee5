import { hasOwnStreams, resourceNames, resources, streamName } from '../../packages/domain/resources.ts';

/** Resources with a stream per object, by id prefix (`packages/domain/resources.ts`). */
const streamResources = new Map(
  resourceNames.filter(hasOwnStreams).map((resource) => [resources[resource].idPrefix as string, resource]),
);

/**
 * The aggregate stream an object id lives in, by the id's prefix: `<resource>-<objectId>` for a
 * resource with a stream per object (docs/architecture.md, "Streams"); null for objects that
 * live in another object's stream (cards, refunds) or in none.
 */
export function streamOfObject(objectId: string): string | null {
  const prefix = objectId.split('_')[0] ?? '';
  const resource = streamResources.get(prefix);
  return resource ? streamName(resource, objectId) : null;
}
