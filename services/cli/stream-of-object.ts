import { hasOwnStreams, streamName } from '../../packages/domain/resource-identity.ts';
import { objectResources } from '../resources/registries.ts';

/**
 * The aggregate stream an object id lives in, by the id's prefix: `<resource>-<objectId>` for a
 * resource with a stream per object (docs/architecture.md, "Streams"); null for objects that
 * live in another object's stream (cards, refunds) or in none.
 */
export function streamOfObject(objectId: string): string | null {
  const identity = objectResources.resourceOf(objectId)?.identity;
  return identity && hasOwnStreams(identity) ? streamName(identity, objectId) : null;
}
