import { fraudWarningResource } from '../../packages/domain/charge/charge-events.ts';
import { fraudWarningReadSide } from '../../projections/resources/fraud-warning-read-side.ts';
import { fraudWarningRoutes } from '../api/routes/fraud-warning-routes.ts';
import { resourceModule } from './resource-module.ts';

export const fraudWarningModule = resourceModule({
  identity: fraudWarningResource,
  readSide: fraudWarningReadSide,
  commands: {},
  routes: fraudWarningRoutes,
});
