import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sinon from 'sinon';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import {
  currentReadStoreBuild,
  ReadStoreBuildProgress,
} from '../../../services/projector/read-store-build-progress.ts';

describe('the read store build progress the operator console shows', function () {
  let dir: string;
  let stateStore: SqliteDocumentStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'build-progress-'));
    stateStore = new SqliteDocumentStore(join(dir, 'state.sqlite'));
  });
  afterEach(async () => {
    sinon.restore();
    await stateStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the build from its start, its position and phase as it goes, and nothing once it ended', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date', 'setInterval', 'clearInterval'] });
    const progress = new ReadStoreBuildProgress(stateStore, 'read.1.sqlite', 'cli', 5_000);
    await clock.tickAsync(0);
    expect(await currentReadStoreBuild(stateStore)).to.include({
      file: 'read.1.sqlite',
      startedBy: 'cli',
      position: 0,
      head: 5_000,
      phase: 'projecting',
    });
    progress.reached(2_500);
    await clock.tickAsync(1_000);
    expect(await currentReadStoreBuild(stateStore)).to.include({ position: 2_500, eventsPerSecond: 2_500 });
    progress.reached(5_000);
    progress.sealing();
    await clock.tickAsync(0);
    expect(await currentReadStoreBuild(stateStore)).to.include({ position: 5_000, phase: 'sealing' });
    await progress.ended();
    expect(await currentReadStoreBuild(stateStore)).to.equal(null);
  });

  it('shows a build that stopped recording (its process killed) for 30 s at most', async () => {
    // Only the clock moves: the builder's own timer never runs again, as in a killed process.
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const progress = new ReadStoreBuildProgress(stateStore, 'read.2.sqlite', 'service start', 100);
    try {
      await Promise.resolve();
      expect(await currentReadStoreBuild(stateStore)).to.include({ file: 'read.2.sqlite' });
      clock.tick(29_000);
      expect(await currentReadStoreBuild(stateStore), 'before 30 s').to.not.equal(null);
      clock.tick(2_000);
      expect(await currentReadStoreBuild(stateStore), 'after 30 s').to.equal(null);
    } finally {
      await progress.ended();
    }
  });
});
