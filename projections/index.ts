import type { Projection } from '../packages/projection/projection.ts';
import { accountsProjection } from './accounts-projection.ts';
import { customersProjection } from './customers-projection.ts';
import { publicEventsProjection } from './public-events-projection.ts';

/** Every read model of the service, by name (`npm run cli -- projections rebuild <name>`). */
export const allProjections = (): Projection[] => [accountsProjection, customersProjection, publicEventsProjection];
