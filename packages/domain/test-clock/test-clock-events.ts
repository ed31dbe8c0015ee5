import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

export const testClockResource = resourceIdentity({ name: 'testClock', idPrefix: 'clock', stream: 'own' });

/** Stream of one test clock: `testClock-<testClockId>`. */
export const testClockStream = (testClockId: string): string => streamName(testClockResource, testClockId);

/** `frozenTime` is the clock's time (Unix seconds); `name` is free text or null. */
export type TestClockCreated = DomainEvent<
  'TestClockCreated',
  { testClockId: string; frozenTime: number; name: string | null }
>;

/** The clock now reads `frozenTime`; the work that fell due up to it is being run. */
export type TestClockAdvanceStarted = DomainEvent<
  'TestClockAdvanceStarted',
  { testClockId: string; frozenTime: number; previousFrozenTime: number }
>;

/** Every piece of work due up to `frozenTime` has run: the clock is ready again. */
export type TestClockAdvanced = DomainEvent<'TestClockAdvanced', { testClockId: string; frozenTime: number }>;

export type TestClockDeleted = DomainEvent<'TestClockDeleted', { testClockId: string }>;

export type TestClockEvent = TestClockCreated | TestClockAdvanceStarted | TestClockAdvanced | TestClockDeleted;

export const testClockEventTypes = everyType<TestClockEvent>()([
  'TestClockCreated',
  'TestClockAdvanceStarted',
  'TestClockAdvanced',
  'TestClockDeleted',
]);
