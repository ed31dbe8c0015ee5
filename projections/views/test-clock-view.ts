import { testClockEventTypes, type TestClockEvent } from '../../packages/domain/test-clock/test-clock-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface TestClockDoc extends Document {
  objectType: 'testClock';
  frozenTime: number;
  status: 'ready' | 'advancing';
  name: string | null;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

/** `{ id, created, objectType: "testClock", frozenTime, status, name }`. */
export const testClockView: ObjectView<TestClockDoc> = {
  eventTypes: new Set(testClockEventTypes),
  objectId: (event) => (event.data as { testClockId?: string }).testClockId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & TestClockEvent;
    if (event.type === 'TestClockCreated') {
      return {
        id: event.data.testClockId,
        created: occurredAtSeconds(recorded),
        objectType: 'testClock',
        frozenTime: event.data.frozenTime,
        status: 'ready',
        name: event.data.name,
        ...tenantFields(recorded),
        _deleted: false,
      };
    }
    if (!current) return current;
    switch (event.type) {
      case 'TestClockAdvanceStarted':
        return { ...current, frozenTime: event.data.frozenTime, status: 'advancing' };
      case 'TestClockAdvanced':
        return { ...current, status: 'ready' };
      case 'TestClockDeleted':
        return { ...current, deleted: true, _deleted: true };
      default:
        return current;
    }
  },
};
