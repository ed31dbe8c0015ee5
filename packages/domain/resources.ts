/**
 * Every resource of the service: the one list a new resource is registered in
 * (`docs/architecture.md`, "Resource modules"). Each line is the resource's identity: the prefix
 * of its ids and where its events live. The read side (`projections/resources`) and the service
 * side (`services/resources`) are records keyed by these names, so the compiler points at every
 * part a new line still lacks; the id prefixes, the stream names and the stream lookup of the CLI
 * are derived from this list, in its order (the order of the API documentation).
 */
export const resources = {
  charge: { idPrefix: 'char', stream: 'own' },
  refund: { idPrefix: 're', stream: 'charge' },
  dispute: { idPrefix: 'dp', stream: 'charge' },
  fraudWarning: { idPrefix: 'fw', stream: 'charge' },
  credit: { idPrefix: 'cr', stream: 'own' },
  customer: { idPrefix: 'cust', stream: 'own' },
  card: { idPrefix: 'card', stream: 'customer' },
  paymentMethod: { idPrefix: 'pm', stream: 'own' },
  plan: { idPrefix: 'plan', stream: 'own' },
  subscription: { idPrefix: 'sub', stream: 'own' },
  testClock: { idPrefix: 'clock', stream: 'own' },
  token: { idPrefix: 'tok', stream: 'own' },
  crossSaleOffer: { idPrefix: 'cso', stream: 'own' },
  blacklistRule: { idPrefix: 'blr', stream: 'own' },
  file: { idPrefix: 'file', stream: 'own' },
  event: { idPrefix: 'event', stream: null },
  webhookEndpoint: { idPrefix: 'we', stream: 'own' },
  webhookDelivery: { idPrefix: 'wd', stream: 'own' },
  account: { idPrefix: 'acct', stream: 'own' },
} as const satisfies Record<string, ResourceIdentity>;

export type ResourceName = keyof typeof resources;

/** Resources whose objects each have a stream of their own. */
export type StreamResource = {
  [Name in ResourceName]: (typeof resources)[Name]['stream'] extends 'own' ? Name : never;
}[ResourceName];

export interface ResourceIdentity {
  /** Ids are `<idPrefix>_<random>` (spec: Conventions). */
  readonly idPrefix: string;
  /**
   * Where the resource's events live: `'own'` is one stream per object, `<resource>-<objectId>`;
   * the name of another resource when its objects live in that one's stream (a card in its
   * customer's, a refund in its charge's); null when it has no events (public events are derived).
   */
  readonly stream: string | null;
}

/**
 * Resources whose streams also hold other resources' objects. The constraint makes a line whose
 * `stream` names anything but a resource with streams of its own fail to compile.
 */
export type StreamHost<
  Host extends StreamResource = Exclude<(typeof resources)[ResourceName]['stream'], 'own' | null>,
> = Host;

type IdPrefixOf<Name extends ResourceName> = (typeof resources)[Name]['idPrefix'];

/**
 * Resources whose id prefix another resource uses too. The constraint makes a line that reuses a
 * prefix fail to compile: an id must tell its resource (the CLI finds streams by it).
 */
export type SharedIdPrefix<
  Shared extends never = {
    [Name in ResourceName]: IdPrefixOf<Name> extends IdPrefixOf<Exclude<ResourceName, Name>> ? Name : never;
  }[ResourceName],
> = Shared;

/** Every resource name, in the order of the list. */
export const resourceNames = Object.keys(resources) as ResourceName[];

export const hasOwnStreams = (resource: ResourceName): resource is StreamResource =>
  resources[resource].stream === 'own';

/** The stream of one object of a resource with streams of its own: `<resource>-<objectId>`. */
export const streamName = (resource: StreamResource, objectId: string): string => `${resource}-${objectId}`;
