import type { z } from 'zod';
import type { ResourceIdentity, StreamResource } from '../../packages/domain/resource-identity.ts';
import type { AnyRouteDefinition } from '../../packages/http/route.ts';
import type { ObjectCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import type { HostedReadSide, ReadSide } from '../../projections/read-side.ts';
import type { ApiDependencies } from '../api/api-dependencies.ts';
import type { EventDataSchema, PublicEventCatalog } from '../api/schemas/event-schemas.ts';
import type { CommandFactories } from '../commands.ts';

/**
 * A resource's API routes, in documentation order. Routes that speak of every public event type
 * (events, webhook endpoints) take them from `publicEvents`, derived from the resource list.
 */
export type ResourceRoutes = (deps: ApiDependencies, publicEvents: PublicEventCatalog) => AnyRouteDefinition[];

/** A response schema, or one made from the public event catalog (for objects that name public event types). */
export type ResponseSchema = z.ZodType | ((catalog: PublicEventCatalog) => z.ZodType);

/**
 * A resource's objects as the API shows them: where its read model keeps them, their response
 * schema, and, when a view projection folds them from events, every domain event type it folds.
 * The tests check the document type against the schema (when compiling) and the view against
 * the event types.
 */
export interface ResourceObjects<Doc extends Document = Document, Schema extends ResponseSchema = ResponseSchema> {
  readonly collection: ObjectCollection<Doc>;
  readonly schema: Schema;
  /** From the domain's lists of event types (`everyType`), which name every type of their union. */
  readonly folded?: readonly string[];
}

export const resourceObjects = <Doc extends Document, const Schema extends ResponseSchema>(
  objects: ResourceObjects<Doc, Schema>,
): ResourceObjects<Doc, Schema> => objects;

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
  Objects extends ResourceObjects | null = ResourceObjects | null,
> {
  readonly identity: Identity;
  /** The domain event types that record changes to its objects (`[]` for none): `docs/events.md` documents each. */
  readonly events: readonly string[];
  /** Its objects as the API shows them; null only for a resource the API does not expose. */
  readonly objects: Objects;
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

/** A resource the API exposes says how it shows its objects. */
type ObjectsOf<Routes extends ResourceRoutes | null> = null extends Routes
  ? unknown
  : { readonly objects: ResourceObjects };

/**
 * A resource module, its types kept: the resource list checks names, prefixes and command services
 * by them, and the tests check its objects' documents against their response schema.
 */
export const resourceModule = <
  const Identity extends ResourceIdentity,
  Side extends ReadSideOf<Identity>,
  Factories extends CommandFactories,
  Objects extends ResourceObjects | null,
  Routes extends ResourceRoutes | null,
>(
  module: ResourceModule<Identity, Side, Factories, Objects> & { readonly routes: Routes } & EventDataOf<Side> &
    ObjectsOf<Routes>,
): ResourceModule<Identity, Side, Factories, Objects> => module;
