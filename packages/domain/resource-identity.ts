/**
 * What identifies a resource (`docs/architecture.md`, "Resource modules"): its name, the prefix of
 * its ids and where its events live. Each resource declares its identity next to its events
 * (`chargeResource` in `charge/charge-events.ts`); ids and stream names are made from it, so code
 * that creates an object names its resource, never a prefix or a stream written out.
 */
export interface ResourceIdentity<Name extends string = string, IdPrefix extends string = string> {
  readonly name: Name;
  /** Ids are `<idPrefix>_<random>` (spec: Conventions). */
  readonly idPrefix: IdPrefix;
  /**
   * Where the resource's events live: `'own'` is one stream per object, `<name>-<objectId>`;
   * another resource (with streams of its own) when its objects live in that one's streams (a card
   * in its customer's, a refund in its charge's); null when it has no events (public events are
   * derived).
   */
  readonly stream: 'own' | StreamResource | null;
}

/** A resource whose objects each have a stream of their own. */
export type StreamResource = ResourceIdentity & { readonly stream: 'own' };

/** A resource's identity, its literal types kept (the resource list checks prefixes by them). */
export const resourceIdentity = <const Identity extends ResourceIdentity>(identity: Identity): Identity => identity;

export const hasOwnStreams = (resource: ResourceIdentity): resource is StreamResource => resource.stream === 'own';

/** The stream of one object of a resource with streams of its own: `<resource>-<objectId>`. */
export const streamName = (resource: StreamResource, objectId: string): string => `${resource.name}-${objectId}`;
