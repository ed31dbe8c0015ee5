import { expect } from 'chai';
import type { Decider } from '../../../packages/domain/decider.ts';

/**
 * Given-events / when-command / then-events (or then-error) for pure deciders.
 */
export function deciderSpec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return (given: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: Event[]) => expect(run()).to.deep.equal(expected),
        thenThrows: (errorType: new (...args: never[]) => Error, message?: RegExp) => {
          expect(run).to.throw(errorType, message);
        },
      };
    },
  });
}
