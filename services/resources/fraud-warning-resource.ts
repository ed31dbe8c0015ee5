import { fraudWarningResource } from '../../packages/domain/charge/charge-events.ts';
import { fraudWarningReadSide } from '../../projections/resources/fraud-warning-read-side.ts';
import { fraudWarningRoutes } from '../api/routes/fraud-warning-routes.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import { fraudWarningsCollection } from '../../projections/fraud-warnings-projection.ts';
import { fraudWarningSchema } from '../api/schemas/fraud-warning-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

export const fraudWarningModule = resourceModule({
  identity: fraudWarningResource,
  events: fraudWarningEventTypes,
  readSide: fraudWarningReadSide,
  objects: resourceObjects({
    collection: fraudWarningsCollection,
    schema: fraudWarningSchema,
    folded: fraudWarningEventTypes,
  }),
  commands: {},
  routes: fraudWarningRoutes,
});
