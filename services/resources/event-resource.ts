import { resourceIdentity } from '../../packages/domain/resource-identity.ts';
import { eventReadSide } from '../../projections/resources/event-read-side.ts';
import { eventRoutes } from '../api/routes/event-routes.ts';
import { resourceModule } from './resource-module.ts';

/** Public events have no events of their own: they are derived from every other resource's. */
const eventResource = resourceIdentity({ name: 'event', idPrefix: 'event', stream: null });

export const eventModule = resourceModule({
  identity: eventResource,
  readSide: eventReadSide,
  commands: {},
  routes: eventRoutes,
});
