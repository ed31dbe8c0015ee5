import type { ResourceIdentity, StreamResource } from '../../packages/domain/resource-identity.ts';
import type { AnyRouteDefinition } from '../../packages/http/route.ts';
import type { HostedReadSide, ReadSide } from '../../projections/read-side.ts';
import type { ApiDependencies } from '../api/api-dependencies.ts';
import type { EventDataSchema, PublicEventCatalog } from '../api/schemas/event-schemas.ts';
import type { CommandFactories } from '../commands.ts';

/**
 * A resource's API routes, in documentation order. Routes that speak of every public event type
 * (events, webhook endpoints) take them from `publicEvents`, derived from the resource list.
 */
export type ResourceRoutes = (deps: ApiDependencies, publicEvents: PublicEventCatalog) => AnyRouteDefinition[];

/**
 * Everything about one resource, declared once (`docs/architecture.md`, "Resource modules"): its
 * identity (from the domain), its read side (from `projections/resources`), the command services
 * it builds, its routes and, when its objects are the `data` of public events, their response
 * schema. The resource list (`index.ts`) holds one line per module, and every registry of the
 * service is derived from it.
 */
export interface ResourceModule<
  Identity extends ResourceIdentity = ResourceIdentity,
  Side extends ReadSide = ReadSide,
  Factories extends CommandFactories = CommandFactories,
> {
  readonly identity: Identity;
  /** A resource whose objects live in another one's streams also says where they are read (`hosted`). */
  readonly readSide: Side;
  /** Its command services (`{}` when it has none); their names and types are added to `Commands` beside them. */
  readonly commands: Factories;
  /** Its routes; null when the API does not expose it. */
  readonly routes: ResourceRoutes | null;
  /** The response schema of its objects, which its public events carry as `data`; only with public events. */
  readonly eventData?: EventDataSchema;
}

/** The read side a resource needs: one that says where its objects are read when they live in another one's streams. */
type ReadSideOf<Identity extends ResourceIdentity> = Identity['stream'] extends StreamResource
  ? HostedReadSide
  : ReadSide;

/** A resource with public events names the schema of their `data`; one without has none. */
type EventDataOf<Side extends ReadSide> = null extends Side['publicEvents']
  ? { readonly eventData?: never }
  : { readonly eventData: EventDataSchema };

/** A resource module, its types kept: the resource list checks names, prefixes and command services by them. */
export const resourceModule = <
  const Identity extends ResourceIdentity,
  Side extends ReadSideOf<Identity>,
  Factories extends CommandFactories,
>(
  module: ResourceModule<Identity, Side, Factories> & EventDataOf<Side>,
): ResourceModule<Identity, Side, Factories> => module;
