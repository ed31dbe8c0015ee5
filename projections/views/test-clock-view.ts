import type { TestClockEvent } from '../../packages/domain/test-clock/test-clock-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** `{ id, created, objectType: "testClock", frozenTime, status, name, deleted? }`. */
export interface TestClockObject {
  id: string;
  created: number;
  objectType: 'testClock';
  frozenTime: number;
  status: 'ready' | 'advancing';
  name: string | null;
  deleted?: true;
}

export interface TestClockDoc extends TestClockObject, TenantScope {
  _deleted: boolean;
}

export const testClockView = objectView<TestClockDoc, TestClockEvent>({
  objectId: (event) => event.data.testClockId,
  on: {
    TestClockCreated: fromEventAlone((event) => ({
      id: event.data.testClockId,
      created: occurredAtSeconds(event),
      objectType: 'testClock',
      frozenTime: event.data.frozenTime,
      status: 'ready',
      name: event.data.name,
      ...tenantFields(event),
      _deleted: false,
    })),
    TestClockAdvanceStarted: (current, event) =>
      current && { ...current, frozenTime: event.data.frozenTime, status: 'advancing' },
    TestClockAdvanced: (current) => current && { ...current, status: 'ready' },
    TestClockDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
  },
});
