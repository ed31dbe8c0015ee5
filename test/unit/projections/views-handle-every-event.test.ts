import { expect } from 'chai';
import { everyType } from '../../../packages/domain/event-types.ts';
import type { PlanEvent } from '../../../packages/domain/plan/plan-events.ts';
import { eventProjection } from '../../../projections/event-projection.ts';
import { isViewProjection } from '../../../projections/view-projection.ts';
import { objectView } from '../../../projections/views/object-view.ts';
import type { PlanDoc } from '../../../projections/views/plan-view.ts';
import { publicObjects } from '../../../services/resources/registries.ts';
import { resourceModules } from '../../../services/resources/index.ts';

const sorted = (types: Iterable<string>): string[] => [...types].sort();

describe('object views', () => {
  it("each fold every event type their resource declares for its objects, from the domain's lists", () => {
    for (const { identity, readSide, objects } of resourceModules) {
      const { projections } = readSide;
      const views = (typeof projections === 'function' ? projections(publicObjects) : projections).filter(
        isViewProjection,
      );
      for (const { name, collection, view } of views) {
        const what = `${identity.name}: view projection ${name}`;
        expect(objects?.collection, `${what} keeps the resource's objects`).to.equal(collection);
        expect(objects?.folded, `${what} has the event types it folds declared`).to.be.an('array');
        expect(sorted(view.eventTypes), what).to.deep.equal(sorted(objects?.folded ?? []));
      }
      if (objects?.folded)
        expect(views, `${identity.name} declares event types but no view folds them`).to.have.length(1);
    }
  });

  it("do not compile when a handler of their event union is missing, nor does a partial list of a resource's event types", () => {
    const incomplete = () =>
      objectView<PlanDoc, PlanEvent>({
        objectId: (event) => event.data.planId,
        // @ts-expect-error PlanDeleted has no handler
        on: { PlanCreated: () => null, PlanUpdated: (current) => current },
      });
    const incompleteProjection = () =>
      eventProjection<PlanEvent>({
        name: 'plans-without-deletions',
        collections: {},
        // @ts-expect-error PlanDeleted has no handler
        on: { PlanCreated: () => undefined, PlanUpdated: () => undefined },
      });
    // @ts-expect-error a resource's list of event types names every type of its union
    const incompleteList = () => everyType<PlanEvent>()(['PlanCreated', 'PlanUpdated']);
    // Built anyway (the compiler is what refuses them): a missing type is simply not handled.
    expect(incompleteList()).to.not.include('PlanDeleted');
    expect(incomplete().eventTypes.has('PlanDeleted')).to.equal(false);
    expect(incompleteProjection().handles('PlanDeleted')).to.equal(false);
  });
});
