import { accountResource } from '../../packages/domain/account/account-events.ts';
import { accountReadSide } from '../../projections/resources/account-read-side.ts';
import { resourceModule } from './resource-module.ts';

export const accountModule = resourceModule({
  identity: accountResource,
  readSide: accountReadSide,
  commands: {},
  routes: null,
});
