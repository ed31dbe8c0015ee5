import { join } from 'node:path';
import { EVENT_LOG_FILE } from '../../packages/config/data-dir-files.ts';
import { createEventStore } from '../../packages/eventstore/create-event-store.ts';
import { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import { allProjections } from '../resources/registries.ts';
import { ReadFileBuild } from './read-file-build.ts';
import type { BuildOrder, BuildReport } from './read-file-build-messages.ts';

/**
 * The process that builds a new read store file for a service starting on an empty one
 * (`empty-read-store-build.ts`, which forks it): what the build allocates (SQLite's page cache of
 * 256 MB, the batches in flight) goes back to the system when it exits, instead of staying in the
 * serving process's memory. It answers the file it built; the service switches to it.
 */
async function build(order: BuildOrder, report: (message: BuildReport) => void): Promise<void> {
  const events = await createEventStore({
    ...(order.eventStoreUrl ? { eventStoreUrl: order.eventStoreUrl } : {}),
    sqlitePath: join(order.dataDir, EVENT_LOG_FILE),
  });
  const readFiles = new SqliteReadFiles(order.dataDir);
  try {
    const build = await ReadFileBuild.begin(events, readFiles, allProjections());
    report({ started: build.path });
    try {
      await build.catchUp((position) => report({ position }));
      report({ sealing: true });
      report({ built: build.path, position: await build.complete() });
    } finally {
      await build.close();
    }
  } finally {
    await readFiles.close();
    await events.close();
  }
}

const send = (message: BuildReport): void => void process.send?.(message);
// The service that forked this process is gone (killed, crashed): nobody would switch to the file.
// Killed rather than exited: `process.exit` waits for the writer thread's SQLite call in progress
// to return (an index build, a commit of 100,000 documents: seconds under load; 5.8 s against
// 0.3 s for a worker in one long statement), a kill does not, and the next build deletes the
// unfinished file anyway.
const orphaned = (): void => void process.kill(process.pid, 'SIGKILL');
process.on('disconnect', orphaned);
process.once('message', (order: BuildOrder) => {
  const done = (): void => {
    process.off('disconnect', orphaned);
    process.disconnect();
  };
  build(order, send).then(done, (error: Error) => {
    send({ failed: error.message });
    done();
  });
});
