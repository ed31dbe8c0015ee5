import { resourceIdentity } from '../../packages/domain/resource-identity.ts';
import { eventReadSide } from '../../projections/resources/event-read-side.ts';
import { eventRoutes } from '../api/routes/event-routes.ts';
import { publicEventsCollection } from '../../projections/public-events-projection.ts';
import { eventSchemas } from '../api/schemas/event-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

/** Public events have no events of their own: they are derived from every other resource's. */
const eventResource = resourceIdentity({ name: 'event', idPrefix: 'event', stream: null });

export const eventModule = resourceModule({
  identity: eventResource,
  events: [],
  readSide: eventReadSide,
  objects: resourceObjects({
    collection: publicEventsCollection,
    schema: (catalog) => eventSchemas(catalog).eventSchema,
  }),
  commands: {},
  routes: eventRoutes,
});
