import { expect } from 'chai';
import type { TestClockEvent } from '../../../packages/domain/test-clock/test-clock-events.ts';
import { testClocksCollection, testClocksProjection } from '../../../projections/test-clocks-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const clock = inStream('testClock-clock_1');
const at = '2026-01-22T00:00:00Z';
const frozen = seconds('2026-01-01T00:00:00Z');

describe('test clocks projection', () => {
  const spec = projectionSpec(testClocksProjection);

  it('renders a clock ready, advancing while an advance runs, ready again after it, then deleted', async () => {
    await spec().given(
      clock<TestClockEvent>(
        { type: 'TestClockCreated', data: { testClockId: 'clock_1', frozenTime: frozen, name: 'Q1' } },
        at,
      ),
    );
    expect(withoutInternals((await spec().get(testClocksCollection, 'clock_1'))!)).to.deep.equal({
      id: 'clock_1',
      created: seconds(at),
      objectType: 'testClock',
      frozenTime: frozen,
      status: 'ready',
      name: 'Q1',
    });
    await spec().given(
      clock<TestClockEvent>({
        type: 'TestClockAdvanceStarted',
        data: { testClockId: 'clock_1', frozenTime: frozen + 86_400, previousFrozenTime: frozen },
      }),
    );
    expect(await spec().get(testClocksCollection, 'clock_1')).to.include({
      status: 'advancing',
      frozenTime: frozen + 86_400,
    });
    await spec().given(
      clock<TestClockEvent>({
        type: 'TestClockAdvanced',
        data: { testClockId: 'clock_1', frozenTime: frozen + 86_400 },
      }),
      clock<TestClockEvent>({ type: 'TestClockDeleted', data: { testClockId: 'clock_1' } }),
    );
    expect(await spec().get(testClocksCollection, 'clock_1')).to.include({
      status: 'ready',
      frozenTime: frozen + 86_400,
      deleted: true,
      _deleted: true,
    });
    await spec().expectRebuildIdentical();
  });
});
