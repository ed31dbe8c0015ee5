import { accountResource, accountEventTypes } from '../../packages/domain/account/account-events.ts';
import { accountReadSide } from '../../projections/resources/account-read-side.ts';
import { resourceModule } from './resource-module.ts';

export const accountModule = resourceModule({
  identity: accountResource,
  events: accountEventTypes,
  readSide: accountReadSide,
  objects: null,
  commands: {},
  routes: null,
});
