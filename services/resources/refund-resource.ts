import { refundResource } from '../../packages/domain/charge/charge-events.ts';
import { refundReadSide } from '../../projections/resources/refund-read-side.ts';
import { refundRoutes } from '../api/routes/refund-routes.ts';
import { resourceModule } from './resource-module.ts';

export const refundModule = resourceModule({
  identity: refundResource,
  readSide: refundReadSide,
  commands: {},
  routes: refundRoutes,
});
