import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { BackgroundWalCheckpoints } from '../../../packages/sqlite/background-wal-checkpoints.ts';

/** A WAL-mode file whose writer never checkpoints by itself: only the background thread can. */
function writerWithoutCheckpoints(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return db;
}

function insertRows(db: Database.Database, count: number): void {
  const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run('x'.repeat(500));
  })();
}

async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('SQLite WAL checkpoints on a background thread', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("copies a writer's commits into the database file, and the writer's log starts over instead of growing", async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    const checkpoints = BackgroundWalCheckpoints.start([file], { intervalMs: 20 });
    try {
      const fileSizeBefore = statSync(file).size;
      insertRows(db, 2000);
      // The rows reach the database file without the writer ever checkpointing.
      await eventually(() => statSync(file).size > fileSizeBefore + 500_000);
      const walAfterFirstBatch = statSync(`${file}-wal`).size;
      // Once all of it was copied, later commits reuse the log from its start: twice as many rows
      // again leave it far smaller than a log holding all of them (three times the first batch's).
      for (let round = 0; round < 20; round++) {
        insertRows(db, 200);
        await sleep(40);
      }
      expect(statSync(`${file}-wal`).size).to.be.below(1.5 * walAfterFirstBatch);
      expect(db.prepare('SELECT count(*) AS n FROM rows').get()).to.deep.equal({ n: 6000 });
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('exits while nothing is committed, and starts again at once when a burst of commits grows the log', async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    const checkpoints = BackgroundWalCheckpoints.start([file], {
      intervalMs: 20,
      idleExitMs: 200,
      trickleWaitMs: 60_000,
      wakeGrowthBytes: 256 * 1024,
    });
    try {
      insertRows(db, 100);
      // Nothing more is committed: the thread copies what there is, then exits.
      await eventually(() => !checkpoints.running);
      const fileSizeAtRest = statSync(file).size;
      await sleep(300);
      expect(checkpoints.running).to.equal(false);
      // A megabyte of commits brings it back long before a trickle's wait, and its pages reach
      // the database file.
      insertRows(db, 2000);
      await eventually(() => checkpoints.running, 2000);
      await eventually(() => statSync(file).size > fileSizeAtRest + 500_000);
      // And it rests again once they are copied.
      await eventually(() => !checkpoints.running);
      expect(db.prepare('SELECT count(*) AS n FROM rows').get()).to.deep.equal({ n: 2100 });
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('checkpoints a trickle of small commits after the trickle wait, not at each commit', async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    const checkpoints = BackgroundWalCheckpoints.start([file], { intervalMs: 20, idleExitMs: 200, trickleWaitMs: 800 });
    try {
      insertRows(db, 100);
      await eventually(() => !checkpoints.running);
      const fileSizeAtRest = statSync(file).size;
      const trickleStarted = Date.now();
      let restartedAt: number | null = null;
      // One small commit every 100 ms.
      while (restartedAt === null && Date.now() - trickleStarted < 5000) {
        insertRows(db, 1);
        await sleep(100);
        if (checkpoints.running) restartedAt = Date.now();
      }
      expect(restartedAt, 'the thread started again').to.not.equal(null);
      expect(restartedAt! - trickleStarted).to.be.at.least(800);
      // The trickle's rows reach the database file.
      await eventually(() => statSync(file).size > fileSizeAtRest);
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('started waiting for commits, runs no thread until commits grow a log, then copies them', async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    insertRows(db, 10);
    const checkpoints = BackgroundWalCheckpoints.start([file], {
      waitForCommits: true,
      intervalMs: 20,
      idleExitMs: 200,
      trickleWaitMs: 60_000,
      wakeGrowthBytes: 256 * 1024,
    });
    try {
      const fileSizeBefore = statSync(file).size;
      expect(checkpoints.running).to.equal(false);
      await sleep(300);
      expect(checkpoints.running, 'a thread for the commits made before the start').to.equal(false);
      insertRows(db, 2000);
      await eventually(() => checkpoints.running, 2000);
      await eventually(() => statSync(file).size > fileSizeBefore + 500_000);
      expect(db.prepare('SELECT count(*) AS n FROM rows').get()).to.deep.equal({ n: 2010 });
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('started waiting for commits, copies what its logs held at the start after the trickle wait', async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    insertRows(db, 100);
    const fileSizeBefore = statSync(file).size;
    const started = Date.now();
    const checkpoints = BackgroundWalCheckpoints.start([file], {
      waitForCommits: true,
      intervalMs: 20,
      idleExitMs: 200,
      trickleWaitMs: 500,
    });
    try {
      await eventually(() => statSync(file).size > fileSizeBefore);
      expect(Date.now() - started).to.be.at.least(500);
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('reports a file it cannot open, keeps checkpointing the others, and stops on request', async () => {
    const file = join(dir, 'store.sqlite');
    const db = writerWithoutCheckpoints(file);
    const failures: { file: string; message: string }[] = [];
    const missing = join(dir, 'missing.sqlite');
    const checkpoints = BackgroundWalCheckpoints.start([missing, file], {
      intervalMs: 20,
      onFailure: (failed, message) => failures.push({ file: failed, message }),
    });
    try {
      const fileSizeBefore = statSync(file).size;
      insertRows(db, 1000);
      await eventually(() => failures.length > 0 && statSync(file).size > fileSizeBefore + 250_000);
      expect(failures[0]!.file).to.equal(missing);
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });
});
