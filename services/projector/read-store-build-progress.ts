import type { Document, DocumentStore } from '../../packages/readstore/document-store.ts';
import { readStoreBuildLease } from './lease.ts';

/**
 * How often a build records how far it has got, and how long a record outlives a builder that
 * stopped recording: long enough for a CLI build at nice 19 on a busy machine, whose event loop may
 * not run its timer for seconds, not to vanish from the console while it runs.
 */
const RECORD_EVERY_MS = 1_000;
const RECORD_TTL_MS = 30_000;
const RECORD_ID = 'current';

/** A full build of the embedded read store under way, as the operator console shows it. */
export interface ReadStoreBuildProgressDoc extends Document {
  id: typeof RECORD_ID;
  /** The file being built (`read.<time>.sqlite`). */
  file: string;
  /** Who builds it: a service starting on an empty read store, or `projections rebuild --all`. */
  startedBy: 'service start' | 'cli';
  startedAt: string;
  /** The log position the build has applied, and the log's head when it started. */
  position: number;
  head: number;
  eventsPerSecond: number;
  /** Projecting the log, then making the list indexes and syncing the file before the switch. */
  phase: 'projecting' | 'sealing';
  /** The record goes when its builder stops renewing it (a crash, a kill). */
  _expiresAt: number;
}

const records = (stateStore: DocumentStore) => stateStore.collection<ReadStoreBuildProgressDoc>('_read_store_build');

/** The build under way, if any (`docs/operations.md`, "Operator console"). */
export async function currentReadStoreBuild(stateStore: DocumentStore): Promise<ReadStoreBuildProgressDoc | null> {
  return records(stateStore).get(RECORD_ID);
}

/**
 * A copy of the state store (a backup) holds no build: the build, its lease and its file are the
 * original's. A service started on the copy builds its own read store.
 */
export async function forgetReadStoreBuild(stateStore: DocumentStore): Promise<void> {
  await records(stateStore).delete(RECORD_ID);
  await readStoreBuildLease(stateStore).forget();
}

/**
 * A full build under way as any process can tell it: its progress record, or, before its builder
 * has written the first (it takes the `read-store-build` lease first; a second or more on a loaded
 * machine), the lease's holder alone. Null when none runs.
 */
export type ReadStoreBuildUnderWay = { record: ReadStoreBuildProgressDoc } | { record: null; holder: string };

export async function readStoreBuildUnderWay(stateStore: DocumentStore): Promise<ReadStoreBuildUnderWay | null> {
  const record = await currentReadStoreBuild(stateStore);
  if (record) return { record };
  const holder = await readStoreBuildLease(stateStore).currentHolder();
  return holder === null ? null : { record: null, holder };
}

/** What a read store build's progress line says (console and CLI): how far, how fast, and what comes next. */
export function readStoreBuildText(
  build: Pick<ReadStoreBuildProgressDoc, 'position' | 'head' | 'eventsPerSecond' | 'phase'>,
): string {
  return build.phase === 'sealing'
    ? `${build.position} / ${build.head}: making the list indexes and syncing the file before the switch`
    : `${build.position} / ${build.head} (${build.eventsPerSecond} events/s)`;
}

/**
 * Records a full build's progress in the state store, where every process's operator console reads
 * it: once a second until it ends, each record living `RECORD_TTL_MS` unless renewed (a builder
 * killed leaves no record behind for long). The builder holds the `read-store-build` lease, so one
 * build records at a time.
 */
export class ReadStoreBuildProgress {
  private readonly startedAt = Date.now();
  private readonly timer: NodeJS.Timeout;
  private position = 0;
  private phase: ReadStoreBuildProgressDoc['phase'] = 'projecting';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly stateStore: DocumentStore,
    private readonly file: string,
    private readonly startedBy: ReadStoreBuildProgressDoc['startedBy'],
    private readonly head: number,
  ) {
    this.record();
    this.timer = setInterval(() => this.record(), RECORD_EVERY_MS);
    this.timer.unref();
  }

  /** Once the records asked for so far are written (or have failed): a builder awaits its first before it projects. */
  async written(): Promise<void> {
    await this.writing;
  }

  /** The position the build has applied (recorded with the next record). */
  reached(position: number): void {
    this.position = position;
  }

  /** The log is projected: the file's indexes are made and it is synced (seconds at a million events). */
  sealing(): void {
    this.phase = 'sealing';
    this.record();
  }

  /** The build ended (switched, failed or stopped): the record goes. */
  async ended(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    await records(this.stateStore)
      .delete(RECORD_ID)
      .catch(() => undefined);
  }

  private record(): void {
    const now = Date.now();
    const seconds = Math.max((now - this.startedAt) / 1000, 0.001);
    const doc: ReadStoreBuildProgressDoc = {
      id: RECORD_ID,
      created: Math.floor(this.startedAt / 1000),
      file: this.file,
      startedBy: this.startedBy,
      startedAt: new Date(this.startedAt).toISOString(),
      position: this.position,
      head: Math.max(this.head, this.position),
      eventsPerSecond: Math.round(this.position / seconds),
      phase: this.phase,
      _expiresAt: now + RECORD_TTL_MS,
    };
    // Progress is for people: a failed record is retried by the next one, never fails the build.
    this.writing = this.writing.then(() => records(this.stateStore).put(doc)).catch(() => undefined);
  }
}
