import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AggregateStore, type ConflictRetryOptions } from '../../../packages/commands/aggregate-store.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import { ConflictRetriesExhaustedError } from '../../../packages/commands/conflict-retries-exhausted.ts';
import { customerDecider, type CustomerCommand } from '../../../packages/domain/customer/customer-decider.ts';
import { customerStream } from '../../../packages/domain/customer/customer-events.ts';
import type { RecordedEvent } from '../../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { CONTENDED_OBJECT_MESSAGE } from '../../../packages/http/errors.ts';
import { defineRoute } from '../../../packages/http/route.ts';
import { call, startToyApi } from '../http/support/toy-api.ts';

const STREAM = customerStream('cust_hot');
const customerResponse = z.object({ description: z.string().nullable() });

const context: CommandContext = {
  accountId: 'acct_a',
  mode: 'test',
  actor: 'key_ours',
  requestId: 'req_ours',
  now: () => new Date('2026-06-01T00:00:00.000Z'),
};

/**
 * The event store file as our aggregate store sees it, while another writer (a second connection
 * to the same file, as another process would be) changes the customer right after each of our
 * reads of it, for as many reads as `rivalAppends` allows: each such append of ours then conflicts.
 */
class ContestedEventStore extends SqliteEventStore {
  rivalAppends = Infinity;
  constructor(
    file: string,
    private readonly rival: SqliteEventStore,
  ) {
    super(file);
  }

  override async readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }) {
    const recorded = await super.readStream(streamId, options);
    if (streamId === STREAM && this.rivalAppends-- > 0) await this.rivalChange(recorded);
    return recorded;
  }

  private async rivalChange(seen: RecordedEvent[]): Promise<void> {
    await this.rival.appendToStream(
      STREAM,
      [
        {
          id: randomUUID(),
          type: 'CustomerUpdated',
          data: { customerId: 'cust_hot', metadata: { rival: String(seen.length) } },
          metadata: { ...seen[0]!.metadata, actor: 'key_rival', requestId: 'req_rival' },
        },
      ],
      { expectedRevision: 'any' },
    );
  }
}

describe('aggregate store: conflicting writers', () => {
  let dir: string;
  let rival: SqliteEventStore;
  let events: ContestedEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payments-conflicts-'));
    const file = join(dir, 'events.sqlite');
    rival = new SqliteEventStore(file);
    events = new ContestedEventStore(file, rival);
    events.rivalAppends = 0;
    await new AggregateStore(events).execute(
      customerDecider,
      STREAM,
      { type: 'CreateCustomer', customerId: 'cust_hot', email: 'hot@example.com' },
      context,
    );
  });

  afterEach(async () => {
    await events.close();
    await rival.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Our update, noting when each attempt decided. */
  const update = (attempts: number[]) => () => {
    attempts.push(performance.now());
    return { type: 'UpdateCustomer', customerId: 'cust_hot', description: 'ours' } satisfies CustomerCommand;
  };

  const recordedBy = async (actor: string) =>
    (await rival.readStream(STREAM)).filter((event) => event.metadata.actor === actor);

  it('decides again on the changed stream after a conflict, and records once', async () => {
    events.rivalAppends = 2;
    const attempts: number[] = [];
    const result = await new AggregateStore(events).execute(customerDecider, STREAM, update(attempts), context);

    expect(attempts).to.have.length(3);
    expect(result.state.status === 'active' && result.state.description).to.equal('ours');
    expect(result.state.status === 'active' && result.state.metadata).to.deep.equal({ rival: '2' });
    expect(await recordedBy('key_rival')).to.have.length(2);
    expect((await recordedBy('key_ours')).map((event) => event.type)).to.deep.equal([
      'CustomerCreated',
      'CustomerUpdated',
    ]);
  });

  it('backs off exponentially between attempts, then gives up with ConflictRetriesExhaustedError and records nothing', async () => {
    events.rivalAppends = Infinity;
    const options: ConflictRetryOptions = { maxRetries: 4, baseDelayMs: 20, maxDelayMs: 1_000 };
    const attempts: number[] = [];
    const failed = await new AggregateStore(events, options)
      .execute(customerDecider, STREAM, update(attempts), context)
      .then(
        () => null,
        (error: unknown) => error,
      );

    expect(failed).to.be.instanceOf(ConflictRetriesExhaustedError);
    expect(failed).to.include({ streamId: STREAM, attempts: 5 });
    expect(attempts).to.have.length(5);
    // Retry n waits between half and all of 20 ms × 2^n (jitter), timers being at most a millisecond early.
    const waits = attempts.slice(1).map((at, index) => at - attempts[index]!);
    waits.forEach((wait, retry) => expect(wait, `wait before retry ${retry + 1}`).to.be.at.least(10 * 2 ** retry - 1));
    expect((await recordedBy('key_ours')).map((event) => event.type)).to.deep.equal(['CustomerCreated']);
    expect(await recordedBy('key_rival')).to.have.length(5);
  });

  it('answers the API client 503 gateway_error with a retry message; the retried request then succeeds', async () => {
    const api = await startToyApi({
      routes: () => [
        defineRoute({
          method: 'post',
          path: '/hot-customer',
          summary: 'Update the contested customer',
          tag: 'Contention',
          response: customerResponse,
          async handler({ auth, requestId }) {
            const result = await new AggregateStore(events, { baseDelayMs: 1 }).execute(
              customerDecider,
              STREAM,
              { type: 'UpdateCustomer', customerId: 'cust_hot', description: requestId },
              { ...context, accountId: auth.accountId, requestId },
            );
            return { description: result.state.status === 'active' ? result.state.description : null };
          },
        }),
      ],
    });
    try {
      events.rivalAppends = Infinity;
      const headers = { 'idempotency-key': 'retry-me', 'x-request-id': 'req_contended' };
      const contended = await call(api, 'POST', '/hot-customer', { headers });
      expect(contended.status).to.equal(503);
      expect(contended.body).to.deep.equal({ error: { type: 'gateway_error', message: CONTENDED_OBJECT_MESSAGE } });
      expect(await recordedBy('key_ours')).to.have.length(1);
      const warned = api.logs.find((line) => line.requestId === 'req_contended' && line.level === 'warn');
      expect(warned, 'a warning naming the stream').to.include({ streamId: STREAM, attempts: 11 });

      // Nothing was recorded, so the same Idempotency-Key runs the request again rather than replaying the 503.
      events.rivalAppends = 0;
      const retried = await call(api, 'POST', '/hot-customer', { headers: { 'idempotency-key': 'retry-me' } });
      expect(retried.status).to.equal(200);
      expect(retried.headers.get('idempotent-replayed')).to.equal(null);
      expect(await recordedBy('key_ours')).to.have.length(2);
    } finally {
      await api.close();
    }
  });
});
