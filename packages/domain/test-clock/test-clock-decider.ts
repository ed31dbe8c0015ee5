import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { TestClockEvent } from './test-clock-events.ts';

export type TestClockState =
  | { status: 'none' }
  | { status: 'ready' | 'advancing'; testClockId: string; frozenTime: number; name: string | null; deleted: boolean };

export type TestClockCommand =
  | { type: 'CreateTestClock'; testClockId: string; frozenTime: number; name: string | null }
  | { type: 'StartAdvance'; testClockId: string; frozenTime: number }
  | { type: 'CompleteAdvance'; testClockId: string; frozenTime: number }
  | { type: 'DeleteTestClock'; testClockId: string };

export const testClockDecider: Decider<TestClockCommand, TestClockEvent, TestClockState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'TestClockCreated') return { status: 'ready', ...event.data, deleted: false };
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'TestClockAdvanceStarted':
        return { ...state, status: 'advancing', frozenTime: event.data.frozenTime };
      case 'TestClockAdvanced':
        return { ...state, status: 'ready' };
      case 'TestClockDeleted':
        return { ...state, deleted: true };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateTestClock':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Test clock '${command.testClockId}' already exists`);
        return [
          {
            type: 'TestClockCreated',
            data: { testClockId: command.testClockId, frozenTime: command.frozenTime, name: command.name },
          },
        ];
      case 'StartAdvance': {
        const clock = requireReady(state, command.testClockId);
        if (command.frozenTime <= clock.frozenTime) {
          throw new InvalidRequestError(
            "Invalid parameter: frozenTime must be later than the clock's current frozenTime",
          );
        }
        return [
          {
            type: 'TestClockAdvanceStarted',
            data: {
              testClockId: command.testClockId,
              frozenTime: command.frozenTime,
              previousFrozenTime: clock.frozenTime,
            },
          },
        ];
      }
      case 'CompleteAdvance':
        // Idempotent: only the advance that is running completes, once.
        if (state.status !== 'advancing' || state.frozenTime !== command.frozenTime) return [];
        return [
          { type: 'TestClockAdvanced', data: { testClockId: command.testClockId, frozenTime: command.frozenTime } },
        ];
      case 'DeleteTestClock':
        requireReady(state, command.testClockId);
        return [{ type: 'TestClockDeleted', data: { testClockId: command.testClockId } }];
    }
  },
};

function requireReady(state: TestClockState, testClockId: string): Exclude<TestClockState, { status: 'none' }> {
  if (state.status === 'none') throw new NotFoundError('Test clock', testClockId);
  if (state.deleted) throw new InvalidRequestError(`Test clock '${testClockId}' has been deleted`);
  if (state.status === 'advancing')
    throw new InvalidRequestError(`Test clock '${testClockId}' is advancing; try again once it is ready`);
  return state;
}
