import { chargeAuthorizationStream } from '../../packages/domain/charge/charge-authorization.ts';
import { chargeResource } from '../../packages/domain/charge/charge-events.ts';
import { creditTransferStream } from '../../packages/domain/credit/credit-transfer.ts';
import { creditResource } from '../../packages/domain/credit/credit-events.ts';
import { hasOwnStreams, streamName } from '../../packages/domain/resource-identity.ts';
import { isIdOf } from '../../packages/ids/object-id.ts';
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

/** The stream of the intent recorded before the network was asked, for a charge or credit id; null otherwise. */
export function intentStreamOfObject(objectId: string): string | null {
  if (isIdOf(chargeResource, objectId)) return chargeAuthorizationStream(objectId);
  if (isIdOf(creditResource, objectId)) return creditTransferStream(objectId);
  return null;
}
