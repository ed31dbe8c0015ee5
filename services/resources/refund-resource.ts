import { refundResource, refundEventTypes } from '../../packages/domain/charge/charge-events.ts';
import { refundReadSide } from '../../projections/resources/refund-read-side.ts';
import { refundRoutes } from '../api/routes/refund-routes.ts';
import { refundsCollection } from '../../projections/refunds-projection.ts';
import { refundSchema } from '../api/schemas/charge-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

export const refundModule = resourceModule({
  identity: refundResource,
  events: refundEventTypes,
  readSide: refundReadSide,
  objects: resourceObjects({ collection: refundsCollection, schema: refundSchema, folded: refundEventTypes }),
  commands: {},
  routes: refundRoutes,
});
