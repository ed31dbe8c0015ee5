import type { EventStore } from '../../packages/eventstore/event-store.ts';
import type { Projection } from '../../packages/projection-runtime/projection.ts';
import { readProjectionState } from '../../packages/projection-runtime/projection-state.ts';
import { ReadStoreBuild, type BuildTarget } from '../../packages/projection-runtime/read-store-build.ts';
import { SqliteBuildFile } from '../../packages/readstore/sqlite-build-file.ts';
import type { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';

/**
 * Every projection built from the log into a new read store file of the embedded profile
 * (`docs/architecture.md`, "Blue/green rebuilds"), under each projection's serving generation:
 * what `projections rebuild --all` does, and a start on an empty read store. Nobody reads the
 * file until the caller switches to it; a build that is closed unfinished leaves it unread, and
 * the next build deletes it. The caller makes sure no other full build runs.
 */
export class ReadFileBuild {
  private constructor(
    readonly path: string,
    private readonly store: SqliteBuildFile,
    private readonly build: ReadStoreBuild,
    private readonly startedAt: string,
  ) {}

  /** Starts the build's writer thread (at the calling thread's priority). */
  static async begin(
    events: EventStore,
    readFiles: SqliteReadFiles,
    projections: Projection[],
  ): Promise<ReadFileBuild> {
    const startedAt = new Date().toISOString();
    const path = readFiles.newFile();
    const targets: BuildTarget[] = [];
    for (const projection of projections)
      targets.push({
        projection,
        generation: (await readProjectionState(readFiles, projection.name)).activeGeneration,
      });
    const store = new SqliteBuildFile(path);
    return new ReadFileBuild(path, store, new ReadStoreBuild(events, store, targets), startedAt);
  }

  /** Applies the log up to its head; `onBatch` is told the position after each batch (it may throw to stop the build). */
  catchUp(onBatch?: (position: number) => void): Promise<number> {
    return this.build.catchUp(onBatch);
  }

  /**
   * Applies what the log holds beyond the last catch-up, records every build as its projection's
   * active generation and seals the file (indexes made, synced): it can be switched to. Returns
   * the log position it holds.
   */
  async complete(): Promise<number> {
    const position = await this.build.catchUp();
    await this.build.finish(this.startedAt);
    await this.store.seal();
    return position;
  }

  /** Ends the build's writer thread; an unsealed file stays unread. */
  close(): Promise<void> {
    return this.store.close();
  }
}
