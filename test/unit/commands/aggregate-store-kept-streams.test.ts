import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AggregateStore } from '../../../packages/commands/aggregate-store.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import { customerDecider } from '../../../packages/domain/customer/customer-decider.ts';
import { customerStream } from '../../../packages/domain/customer/customer-events.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';

const context: CommandContext = {
  accountId: 'acct_a',
  mode: 'test',
  actor: 'key_ours',
  requestId: 'req_ours',
  now: () => new Date('2026-06-01T00:00:00.000Z'),
};

describe('aggregate store: streams kept between loads', () => {
  let dir: string;
  let ours: SqliteEventStore;
  let theirs: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kept-streams-'));
    // Two connections to one file: ours, and another process's.
    ours = new SqliteEventStore(join(dir, 'events.sqlite'));
    theirs = new SqliteEventStore(join(dir, 'events.sqlite'));
  });
  afterEach(async () => {
    await ours.close();
    await theirs.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sees every change, also another process's, and reads only the events appended since", async () => {
    const aggregates = new AggregateStore(ours);
    const elsewhere = new AggregateStore(theirs);
    const stream = customerStream('cust_kept');
    await elsewhere.execute(
      customerDecider,
      stream,
      { type: 'CreateCustomer', customerId: 'cust_kept', email: 'a@example.com' },
      context,
    );

    const first = await aggregates.loadKept(customerDecider, stream, context);
    expect(first.revision).to.equal(0);
    expect(first.state).to.include({ email: 'a@example.com' });

    const readFrom: number[] = [];
    const readStream = ours.readStream.bind(ours);
    ours.readStream = (streamId, options) => {
      readFrom.push(options?.fromRevision ?? 0);
      return readStream(streamId, options);
    };
    expect(await aggregates.loadKept(customerDecider, stream, context)).to.equal(first);

    await elsewhere.execute(
      customerDecider,
      stream,
      { type: 'UpdateCustomer', customerId: 'cust_kept', email: 'b@example.com' },
      context,
    );
    const changed = await aggregates.loadKept(customerDecider, stream, context);
    expect(changed.revision).to.equal(1);
    expect(changed.state).to.include({ email: 'b@example.com' });
    expect(changed.events.map((event) => event.type)).to.deep.equal(['CustomerCreated', 'CustomerUpdated']);
    expect(changed).to.deep.equal(await new AggregateStore(theirs).load(customerDecider, stream, context));
    expect(readFrom).to.deep.equal([1, 1]);
  });

  it("keeps another tenant's stream as missing, as load does", async () => {
    const aggregates = new AggregateStore(ours);
    const stream = customerStream('cust_other');
    await aggregates.execute(
      customerDecider,
      stream,
      { type: 'CreateCustomer', customerId: 'cust_other', email: 'c@example.com' },
      context,
    );
    expect((await aggregates.loadKept(customerDecider, stream, context)).revision).to.equal(0);
    const other = await aggregates.loadKept(customerDecider, stream, { ...context, accountId: 'acct_b' });
    expect(other.revision).to.equal(null);
    expect(other.state).to.deep.equal(customerDecider.initialState());
  });
});
