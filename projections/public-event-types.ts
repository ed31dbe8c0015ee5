import { resourceNames, type ResourceName } from '../packages/domain/resources.ts';
import type { PublicObjectEvents } from './read-side.ts';
import { objectReadSides } from './resources/object-read-sides.ts';

type ObjectReadSides = typeof objectReadSides;

/** Whether a resource's objects may be event `data` (all but the public events resources). */
const hasObjectReadSide = (resource: ResourceName): resource is keyof ObjectReadSides =>
  Object.hasOwn(objectReadSides, resource);

/** Every public event type (spec: Events), as the resources' read sides declare them. */
export type PublicEventType = {
  [Resource in keyof ObjectReadSides]: ObjectReadSides[Resource]['publicEvents'] extends PublicObjectEvents<infer Type>
    ? Type
    : never;
}[keyof ObjectReadSides];

/**
 * The public events of every kind of object that appears as event `data`, in the order of the
 * resource list. `docs/events.md` is the human-readable copy; a test keeps both in step.
 */
export const publicObjects: readonly PublicObjectEvents<PublicEventType>[] = resourceNames
  .filter(hasObjectReadSide)
  .flatMap((resource) => {
    const publicEvents: PublicObjectEvents<PublicEventType> | null = objectReadSides[resource].publicEvents;
    return publicEvents ? [publicEvents] : [];
  });

/** Every public event type, in documentation order (the resource list's). */
export const publicEventTypeNames = [...new Set(publicObjects.flatMap((object) => object.types))] as [
  PublicEventType,
  ...PublicEventType[],
];
