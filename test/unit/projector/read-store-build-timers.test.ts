import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { ReadStoreBuild } from '../../../packages/projection-runtime/read-store-build.ts';
import { SqliteBuildFile } from '../../../packages/readstore/sqlite-build-file.ts';
import { allProjections } from '../../../services/resources/registries.ts';
import { seedCustomerCreations } from '../../support/seed-log.ts';

// A full build holds the `read-store-build` lease (renewed every 3 s, expiring after 10 s) and
// keeps a progress record (30 s) by timers of its own process. Its file commits only every
// 100,000 documents, so the timers must get their turn between batches, not only around commits.
describe('a full read store build lets its process’s timers run while it projects', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'build-timers-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs an interval timer between batches, long before the file’s first commit', async () => {
    const logPath = join(dir, 'events.sqlite');
    await seedCustomerCreations(logPath, ['acct_timers'], 0, 6_000);
    const events = new SqliteEventStore(logPath);
    const path = join(dir, 'read.1.sqlite');
    closeSync(openSync(path, 'w', 0o600));
    const store = new SqliteBuildFile(path);
    const build = new ReadStoreBuild(
      events,
      store,
      allProjections().map((projection) => ({ projection, generation: 1 })),
      { batchSize: 200 },
    );
    let position = 0;
    const positionsAtTicks = new Set<number>();
    const timer = setInterval(() => positionsAtTicks.add(position), 1);
    try {
      const reached = await build.catchUp((next) => (position = next));
      expect(reached).to.equal(6_000);
      // 30 batches, each longer than the timer's millisecond: a starved timer would first run
      // at 6,000, after the last one.
      const whileProjecting = [...positionsAtTicks].filter((at) => at < reached);
      expect(
        whileProjecting.length,
        `positions at which the timer ran: ${[...positionsAtTicks].join(', ')}`,
      ).to.be.at.least(5);
    } finally {
      clearInterval(timer);
      await store.close();
      await events.close();
    }
  });
});
