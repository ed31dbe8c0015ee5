import { resourceNames, type ResourceName } from '../../packages/domain/resources.ts';
import type { Projection } from '../../packages/projection/projection.ts';
import type { ReadSide } from '../read-side.ts';
import { eventReadSide } from './event-read-side.ts';
import { objectReadSides } from './object-read-sides.ts';
import { webhookDeliveryReadSide } from './webhook-delivery-read-side.ts';

/** The read side of every resource (`packages/domain/resources.ts` lists them). */
export const readSides: Readonly<Record<ResourceName, ReadSide>> = {
  ...objectReadSides,
  event: eventReadSide,
  webhookDelivery: webhookDeliveryReadSide,
};

/** Every read model of the service, resource by resource (`npm run cli -- projections rebuild <name>`). */
export const allProjections = (): Projection[] => resourceNames.flatMap((resource) => readSides[resource].projections);
