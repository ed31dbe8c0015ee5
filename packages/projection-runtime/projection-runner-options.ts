/** What a projection runner is configured with, and the events it emits. */

export interface RebuildProgress {
  projection: string;
  generation: number;
  position: number;
  headPosition: number;
}

export interface ProjectionRunnerOptions {
  /** Most events per batch while following the log (each batch is one commit that waiting requests wait for). */
  batchSize?: number;
  /**
   * Most events per batch while catching up with events already in the log at start, and in
   * rebuilds (default: `batchSize`). Nobody waits on those batches, but larger ones gained nothing
   * measurable once the WAL is checkpointed less often while catching up, and held more memory.
   */
  catchUpBatchSize?: number;
  /** How long a replaced build stays readable after a switch, for readers still using it. */
  dropGraceMs?: number;
  /** How often to look for rebuild requests made by operators. */
  requestPollMs?: number;
  onError?: (error: Error) => void;
}

export interface RunnerEvents {
  committed: [projection: string, generation: number, position: number];
  switched: [projection: string, generation: number];
  progress: [progress: RebuildProgress];
}
