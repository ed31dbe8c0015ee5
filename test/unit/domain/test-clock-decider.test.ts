import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { testClockDecider } from '../../../packages/domain/test-clock/test-clock-decider.ts';
import type { TestClockEvent } from '../../../packages/domain/test-clock/test-clock-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(testClockDecider);
const created: TestClockEvent = {
  type: 'TestClockCreated',
  data: { testClockId: 'clock_1', frozenTime: 1_000, name: null },
};
const advancing: TestClockEvent = {
  type: 'TestClockAdvanceStarted',
  data: { testClockId: 'clock_1', frozenTime: 5_000, previousFrozenTime: 1_000 },
};

describe('test clock decider', () => {
  it('creates a clock frozen at its time, once', () => {
    spec([]).when({ type: 'CreateTestClock', testClockId: 'clock_1', frozenTime: 1_000, name: null }).then([created]);
    spec([created])
      .when({ type: 'CreateTestClock', testClockId: 'clock_1', frozenTime: 2_000, name: 'again' })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('advances only forward, one advance at a time', () => {
    spec([created]).when({ type: 'StartAdvance', testClockId: 'clock_1', frozenTime: 5_000 }).then([advancing]);
    spec([created])
      .when({ type: 'StartAdvance', testClockId: 'clock_1', frozenTime: 1_000 })
      .thenThrows(InvalidRequestError, /later/);
    spec([created, advancing])
      .when({ type: 'StartAdvance', testClockId: 'clock_1', frozenTime: 9_000 })
      .thenThrows(InvalidRequestError, /advancing/);
    spec([]).when({ type: 'StartAdvance', testClockId: 'clock_1', frozenTime: 9_000 }).thenThrows(NotFoundError);
  });

  it('completes the running advance once; a rerun records nothing', () => {
    const completed: TestClockEvent = {
      type: 'TestClockAdvanced',
      data: { testClockId: 'clock_1', frozenTime: 5_000 },
    };
    spec([created, advancing])
      .when({ type: 'CompleteAdvance', testClockId: 'clock_1', frozenTime: 5_000 })
      .then([completed]);
    spec([created, advancing, completed])
      .when({ type: 'CompleteAdvance', testClockId: 'clock_1', frozenTime: 5_000 })
      .then([]);
    spec([created, advancing]).when({ type: 'CompleteAdvance', testClockId: 'clock_1', frozenTime: 4_000 }).then([]);
  });

  it('cannot be deleted while advancing, nor advanced once deleted', () => {
    spec([created, advancing])
      .when({ type: 'DeleteTestClock', testClockId: 'clock_1' })
      .thenThrows(InvalidRequestError, /advancing/);
    const deleted: TestClockEvent = { type: 'TestClockDeleted', data: { testClockId: 'clock_1' } };
    spec([created]).when({ type: 'DeleteTestClock', testClockId: 'clock_1' }).then([deleted]);
    spec([created, deleted])
      .when({ type: 'StartAdvance', testClockId: 'clock_1', frozenTime: 5_000 })
      .thenThrows(InvalidRequestError, /deleted/);
  });
});
