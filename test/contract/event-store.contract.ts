import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../packages/eventstore/event-store.ts';
import { eventHash, GENESIS_HASH } from '../../packages/eventstore/event-hash.ts';

/** Time given to a subscription to (wrongly) deliver something more before we assert it did not. */
const QUIET_PERIOD_MS = 300;

/**
 * The behaviour every EventStore adapter must show. Each test uses its own stream ids, so the suite
 * also runs against a shared EventStoreDB server that holds other events.
 */
export function describeEventStoreContract(adapterName: string, open: () => Promise<EventStore>): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let store: EventStore;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    describe('appendToStream', () => {
      it("creates a stream with 'no_stream' and rejects a second 'no_stream' append", async () => {
        const streamId = newStreamId();

        const result = await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).to.equal(0);
        expect(result.position).to.be.greaterThan(0);

        const error = await rejectionOf(
          store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' }),
        );
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(error).to.include({ streamId, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(streamId)).to.have.length(1);
      });

      it('appends at the exact expected revision and reports the actual revision on conflict', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });

        const result = await store.appendToStream(streamId, [newEvent()], { expectedRevision: 1 });
        expect(result.nextExpectedRevision).to.equal(2);

        const stale = await rejectionOf(store.appendToStream(streamId, [newEvent()], { expectedRevision: 1 }));
        expect(stale).to.be.instanceOf(WrongExpectedRevisionError);
        expect(stale).to.include({ streamId, expected: 1, actual: 2 });

        const ahead = await rejectionOf(store.appendToStream(streamId, [newEvent()], { expectedRevision: 5 }));
        expect(ahead).to.include({ expected: 5, actual: 2 });
      });

      it("reports 'no_stream' as the actual revision when an exact revision is expected of a missing stream", async () => {
        const streamId = newStreamId();

        const error = await rejectionOf(store.appendToStream(streamId, [newEvent()], { expectedRevision: 0 }));

        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(error).to.include({ streamId, expected: 0, actual: 'no_stream' });
      });

      it("appends with 'any' whether or not the stream exists", async () => {
        const streamId = newStreamId();

        const first = await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'any' });
        const second = await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'any' });

        expect(first.nextExpectedRevision).to.equal(0);
        expect(second.nextExpectedRevision).to.equal(2);
      });

      it('appends the events of one call contiguously, in the stream and in the global log', async () => {
        const streamId = newStreamId();
        const otherStreamId = newStreamId();
        const head = await store.headPosition();
        await store.appendToStream(otherStreamId, [newEvent()], { expectedRevision: 'no_stream' });
        const events = [newEvent(), newEvent(), newEvent()];

        const result = await store.appendToStream(streamId, events, { expectedRevision: 'no_stream' });
        await store.appendToStream(otherStreamId, [newEvent()], { expectedRevision: 0 });

        const stream = await store.readStream(streamId);
        expect(stream.map((event) => event.revision)).to.deep.equal([0, 1, 2]);
        expect(result).to.deep.equal({ nextExpectedRevision: 2, position: stream[2]!.position });
        const log = await store.readAll({ afterPosition: head });
        const first = log.findIndex((event) => event.id === events[0]!.id);
        expect(log.slice(first, first + 3).map((event) => event.id)).to.deep.equal(events.map((event) => event.id));
      });

      it('reports the position of a single appended event', async () => {
        const streamId = newStreamId();

        const result = await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });

        const [recorded] = await store.readStream(streamId);
        expect(result.position).to.equal(recorded!.position);
      });

      it('treats a retry of the same append as already done', async () => {
        const streamId = newStreamId();
        const first = newEvent();
        await store.appendToStream(streamId, [first], { expectedRevision: 'no_stream' });
        const events = [newEvent(), newEvent()];

        const original = await store.appendToStream(streamId, events, { expectedRevision: 0 });
        const retry = await store.appendToStream(streamId, events, { expectedRevision: 0 });

        expect(retry.nextExpectedRevision).to.equal(original.nextExpectedRevision);
        expect(ids(await store.readStream(streamId))).to.deep.equal(ids([first, ...events]));
      });

      it('rejects an append without events', async () => {
        const error = await rejectionOf(store.appendToStream(newStreamId(), [], { expectedRevision: 'any' }));

        expect(error).to.be.instanceOf(RangeError);
      });

      it('lets exactly one of 20 concurrent appends at the same expected revision through', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });

        const outcomes = await Promise.allSettled(
          Array.from({ length: 20 }, () => store.appendToStream(streamId, [newEvent()], { expectedRevision: 0 })),
        );

        const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
        expect(succeeded).to.have.length(1);
        expect(rejected).to.have.length(19);
        for (const outcome of rejected) expect(outcome.reason).to.be.instanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(streamId)).to.have.length(2);
      });

      it('lets concurrent appends to different streams through while a conflicting one among them fails alone', async () => {
        const existing = newStreamId();
        await store.appendToStream(existing, [newEvent()], { expectedRevision: 'no_stream' });
        const streams = Array.from({ length: 10 }, () => newStreamId());
        const batches = streams.map(() => [newEvent(), newEvent()]);

        const [conflict, ...outcomes] = await Promise.allSettled([
          store.appendToStream(existing, [newEvent()], { expectedRevision: 'no_stream' }),
          ...streams.map((streamId, index) =>
            store.appendToStream(streamId, batches[index]!, { expectedRevision: 'no_stream' }),
          ),
        ]);

        expect(conflict!.status).to.equal('rejected');
        const error = (conflict as PromiseRejectedResult).reason as unknown;
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(error).to.include({ streamId: existing, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(existing)).to.have.length(1);
        for (const [index, streamId] of streams.entries()) {
          expect(outcomes[index]!.status, streamId).to.equal('fulfilled');
          const stream = await store.readStream(streamId);
          expect(ids(stream)).to.deep.equal(ids(batches[index]!));
          expect((outcomes[index] as PromiseFulfilledResult<{ position: number }>).value.position).to.equal(
            stream[1]!.position,
          );
          expectUnbrokenChain(stream);
        }
      });
    });

    describe('readStream', () => {
      it('returns the events in revision order, from a revision and up to a count', async () => {
        const streamId = newStreamId();
        const events = Array.from({ length: 5 }, (_, index) => newEvent(`Step${index}`));
        await store.appendToStream(streamId, events.slice(0, 2), { expectedRevision: 'no_stream' });
        await store.appendToStream(streamId, events.slice(2), { expectedRevision: 1 });

        const all = await store.readStream(streamId);
        expect(all.map((event) => event.type)).to.deep.equal(['Step0', 'Step1', 'Step2', 'Step3', 'Step4']);
        expect(all.map((event) => event.revision)).to.deep.equal([0, 1, 2, 3, 4]);
        expect(all.every((event) => event.streamId === streamId)).to.equal(true);
        expect(revisions(await store.readStream(streamId, { fromRevision: 2 }))).to.deep.equal([2, 3, 4]);
        expect(revisions(await store.readStream(streamId, { maxCount: 2 }))).to.deep.equal([0, 1]);
        expect(revisions(await store.readStream(streamId, { fromRevision: 3, maxCount: 1 }))).to.deep.equal([3]);
        expect(await store.readStream(streamId, { fromRevision: 5 })).to.deep.equal([]);
      });

      it('returns no events for a stream that does not exist', async () => {
        expect(await store.readStream(newStreamId())).to.deep.equal([]);
      });

      it('round-trips data and metadata: nested JSON, unicode, nulls', async () => {
        const streamId = newStreamId();
        const data = {
          amount: 1099,
          currency: 'EUR',
          captured: false,
          refunds: [],
          description: 'Zażółć gęślą jaźń – 日本語 – emoji 💳',
          card: { brand: 'visa', last4: '4242', checks: { cvc: 'pass', address: null } },
          lines: [
            { sku: 'a', qty: 1 },
            { sku: 'b', qty: 2.5 },
          ],
        };
        const metadata: EventMetadata = {
          accountId: 'acct_ünïcødé',
          mode: 'live',
          requestId: 'req_1',
          causationId: 'cmd_1',
          idempotencyKey: 'key 🔑',
          actor: 'key_1',
          occurredAt: '2024-02-29T12:34:56.789Z',
          extra: { nested: ['x', 1, null] },
        };
        const event = { id: randomUUID(), type: 'ChargeCreated', data, metadata };
        const head = await store.headPosition();

        await store.appendToStream(streamId, [event], { expectedRevision: 'no_stream' });

        const [fromStream] = await store.readStream(streamId);
        expect(fromStream).to.deep.include({
          id: event.id,
          streamId,
          revision: 0,
          type: 'ChargeCreated',
          data,
          metadata,
        });
        expect(fromStream!.recordedAt).to.be.instanceOf(Date);
        expect(Number.isNaN(fromStream!.recordedAt.getTime())).to.equal(false);
        const fromLog = await store.readAll({ afterPosition: head });
        expect(fromLog.find((recorded) => recorded.id === event.id)).to.deep.equal(fromStream);
      });
    });

    describe('tamper evidence', () => {
      it('chains every appended event to the one before it in its stream, whatever the expected revision', async () => {
        const streamId = newStreamId();
        const start = await store.headPosition();
        await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 1 });
        await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'any' });

        const stream = await store.readStream(streamId);

        expect(stream).to.have.length(5);
        expectUnbrokenChain(stream);
        const fromLog = await store.readAll({ afterPosition: start });
        for (const event of stream) expect(fromLog.find((logged) => logged.id === event.id)?.hash).to.equal(event.hash);
      });

      it('keeps the chain unbroken under concurrent appends to one stream', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });

        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, () => store.appendToStream(streamId, [newEvent()], { expectedRevision: 'any' })),
        );
        const racing = await Promise.allSettled(
          Array.from({ length: 10 }, () => store.appendToStream(streamId, [newEvent()], { expectedRevision: 10 })),
        );

        expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).to.equal(true);
        expect(racing.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
        const stream = await store.readStream(streamId);
        expect(stream).to.have.length(12);
        expectUnbrokenChain(stream);
      });

      it('gives a retried append the hashes of the original', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });
        const events = [newEvent(), newEvent()];
        await store.appendToStream(streamId, events, { expectedRevision: 0 });
        const before = await store.readStream(streamId);

        await store.appendToStream(streamId, events, { expectedRevision: 0 });

        expect(await store.readStream(streamId)).to.deep.equal(before);
      });

      it('hashes what a reader gets back, so changing any field of an event changes its hash', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent('Changed', { amount: 100, nested: { b: 1, a: [1, 2] } })], {
          expectedRevision: 'no_stream',
        });
        const [event] = await store.readStream(streamId);

        expect(event!.hash).to.equal(eventHash(GENESIS_HASH, event!));
        expect(eventHash(GENESIS_HASH, { ...event!, data: { ...event!.data, amount: 101 } })).to.not.equal(event!.hash);
        expect(
          eventHash(GENESIS_HASH, { ...event!, metadata: { ...event!.metadata, actor: 'key_other' } }),
        ).to.not.equal(event!.hash);
        expect(eventHash(GENESIS_HASH, { ...event!, revision: 1 })).to.not.equal(event!.hash);
      });
    });

    describe('readAll', () => {
      it('returns the events of all streams in global order, after a position and up to a count', async () => {
        const head = await store.headPosition();
        const [streamA, streamB] = [newStreamId(), newStreamId()];
        const [a1, b1, a2, b2] = [newEvent(), newEvent(), newEvent(), newEvent()];
        await store.appendToStream(streamA, [a1], { expectedRevision: 'no_stream' });
        await store.appendToStream(streamB, [b1], { expectedRevision: 'no_stream' });
        await store.appendToStream(streamA, [a2], { expectedRevision: 0 });
        await store.appendToStream(streamB, [b2], { expectedRevision: 0 });

        const ours = (events: RecordedEvent[]) => events.filter((event) => [streamA, streamB].includes(event.streamId));
        const log = ours(await store.readAll({ afterPosition: head }));
        expect(ids(log)).to.deep.equal(ids([a1, b1, a2, b2]));
        expect(isStrictlyIncreasing(log.map((event) => event.position))).to.equal(true);

        const afterA1 = ours(await store.readAll({ afterPosition: log[0]!.position }));
        expect(ids(afterA1)).to.deep.equal(ids([b1, a2, b2]));

        const everything = await store.readAll({ afterPosition: head });
        expect(await store.readAll({ afterPosition: head, maxCount: 2 })).to.deep.equal(everything.slice(0, 2));
        expect(await store.readAll({ afterPosition: log[3]!.position })).to.deep.equal(
          everything.slice(everything.findIndex((event) => event.id === b2.id) + 1),
        );
      });

      it('gives every appended event a strictly greater position than the one before', async () => {
        const head = await store.headPosition();
        const streamIds = [newStreamId(), newStreamId(), newStreamId()];
        const results = [];
        for (let round = 0; round < 4; round += 1) {
          for (const streamId of streamIds) {
            results.push(await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'any' }));
          }
        }

        expect(isStrictlyIncreasing(results.map((result) => result.position))).to.equal(true);
        const positions = (await store.readAll({ afterPosition: head }))
          .filter((event) => streamIds.includes(event.streamId))
          .map((event) => event.position);
        expect(positions).to.have.length(24);
        expect(positions[0]).to.be.greaterThan(head);
        expect(isStrictlyIncreasing(positions)).to.equal(true);
        expect(positions.every(Number.isSafeInteger)).to.equal(true);
      });
    });

    describe('headPosition', () => {
      it('is the position of the last event in the global log', async () => {
        const streamId = newStreamId();
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });

        const result = await store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 0 });

        expect(await store.headPosition()).to.equal(result.position);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up from a checkpoint, then receives live appends in order, each once', async () => {
        const streamId = newStreamId();
        const events = Array.from({ length: 6 }, () => newEvent());
        await store.appendToStream(streamId, events.slice(0, 3), { expectedRevision: 'no_stream' });
        const [first] = await store.readStream(streamId);
        const received: RecordedEvent[] = [];

        const subscription = store.subscribeToAll(
          (event) => {
            if (event.streamId === streamId) received.push(event);
          },
          { afterPosition: first!.position },
        );
        try {
          await waitUntil(() => received.length === 2);
          await store.appendToStream(streamId, events.slice(3, 5), { expectedRevision: 2 });
          await store.appendToStream(streamId, events.slice(5), { expectedRevision: 4 });
          await waitUntil(() => received.length === 5);
          await sleep(QUIET_PERIOD_MS);
        } finally {
          await subscription.unsubscribe();
        }

        expect(ids(received)).to.deep.equal(ids(events.slice(1)));
        expect(received.map((event) => event.revision)).to.deep.equal([1, 2, 3, 4, 5]);
        expect(isStrictlyIncreasing(received.map((event) => event.position))).to.equal(true);
      });

      it('awaits the handler: one event at a time, in order', async () => {
        const streamId = newStreamId();
        const head = await store.headPosition();
        const received: string[] = [];
        let running = 0;
        let mostRunningAtOnce = 0;

        const subscription = store.subscribeToAll(
          async (event) => {
            if (event.streamId !== streamId) return;
            running += 1;
            mostRunningAtOnce = Math.max(mostRunningAtOnce, running);
            await sleep(20);
            received.push(event.id);
            running -= 1;
          },
          { afterPosition: head },
        );
        const events = Array.from({ length: 6 }, () => newEvent());
        try {
          for (const [revision, event] of events.entries()) {
            await store.appendToStream(streamId, [event], {
              expectedRevision: revision === 0 ? 'no_stream' : revision - 1,
            });
          }
          await waitUntil(() => received.length === events.length);
        } finally {
          await subscription.unsubscribe();
        }

        expect(mostRunningAtOnce).to.equal(1);
        expect(received).to.deep.equal(ids(events));
      });

      it('stops delivering once unsubscribe has resolved, even with a handler call in progress', async () => {
        const streamId = newStreamId();
        const head = await store.headPosition();
        const received: string[] = [];
        let handlerRunning = false;
        const subscription = store.subscribeToAll(
          async (event) => {
            if (event.streamId !== streamId) return;
            handlerRunning = true;
            await sleep(100);
            received.push(event.id);
            handlerRunning = false;
          },
          { afterPosition: head },
        );
        const [first, second, third] = [newEvent(), newEvent(), newEvent()];

        await store.appendToStream(streamId, [first, second], { expectedRevision: 'no_stream' });
        await waitUntil(() => handlerRunning);
        await subscription.unsubscribe();
        expect(handlerRunning).to.equal(false);
        await store.appendToStream(streamId, [third], { expectedRevision: 1 });
        await sleep(QUIET_PERIOD_MS);

        expect(received).to.deep.equal([first.id]);
      });

      it('stops at a handler rejection and reports it to onError', async () => {
        const streamId = newStreamId();
        const head = await store.headPosition();
        const failure = new Error('projection failed');
        const calls: string[] = [];
        const errors: Error[] = [];
        store.subscribeToAll(
          (event) => {
            if (event.streamId !== streamId) return;
            calls.push(event.id);
            throw failure;
          },
          { afterPosition: head, onError: (error) => errors.push(error) },
        );
        const [first, second] = [newEvent(), newEvent()];

        await store.appendToStream(streamId, [first], { expectedRevision: 'no_stream' });
        await waitUntil(() => errors.length > 0);
        await store.appendToStream(streamId, [second], { expectedRevision: 0 });
        await sleep(QUIET_PERIOD_MS);

        expect(errors).to.deep.equal([failure]);
        expect(calls).to.deep.equal([first.id]);
      });
    });
  });
}

export function newEvent(
  type = 'SomethingHappened',
  data: Record<string, unknown> = { value: randomUUID() },
): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { accountId: 'acct_contract', mode: 'test', occurredAt: new Date().toISOString() },
  };
}

export function newStreamId(): string {
  return `contract-${randomUUID()}`;
}

/** Resolves once the condition holds; fails the test if it does not within the timeout. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject');
}

/** Every event's hash is the hash of its content chained to the hash of the event before it. */
function expectUnbrokenChain(stream: RecordedEvent[]): void {
  let previous = GENESIS_HASH;
  for (const event of stream) {
    expect(event.hash, `hash of revision ${event.revision}`).to.match(/^[0-9a-f]{64}$/);
    expect(event.hash, `hash of revision ${event.revision}`).to.equal(eventHash(previous, event));
    previous = event.hash!;
  }
}

function ids(events: { id: string }[]): string[] {
  return events.map((event) => event.id);
}

function revisions(events: RecordedEvent[]): number[] {
  return events.map((event) => event.revision);
}

function isStrictlyIncreasing(values: number[]): boolean {
  return values.every((value, index) => index === 0 || value > values[index - 1]!);
}
