import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { GROUP_COMMIT_SOURCE, type GroupOutcomes, type GroupRequest } from './sqlite-group-commit.ts';

interface Reply {
  id: number;
  outcomes?: GroupOutcomes;
  error?: { message: string; code: string | null };
  /** Why the log's sync after the group failed (its commit stands). */
  syncError?: { message: string; code: string | null };
}

/** A group as it landed: each append's outcome, and whether the thread synced the log through it. */
export interface LandedGroup {
  outcomes: GroupOutcomes;
  /** True when the thread synced the log after the commit; an error when that sync failed. */
  synced: boolean | Error;
}

/**
 * The events file's group commits on a worker thread with a SQLite connection of its own
 * (`GROUP_COMMIT_SOURCE`, the same code the event loop's connection runs): the transaction's
 * revision checks, row and index writes, the events' SHA-256 and the commit run on the machine's
 * other core while the event loop answers requests. Groups run in the order given, each in a
 * transaction of its own; `commit` resolves with each append's outcome once the group has
 * committed (not yet synced), or rejects when the whole group failed (nothing of it written).
 * After a group that failed, the thread refuses every group given after it, unwritten, until a
 * group marked `resume` (given once the caller has learnt of the failure). What the thread holds
 * is the group it runs and those given after it.
 *
 * The thread is plain JavaScript evaluated in it (no module of ours to resolve, the same under
 * tsx and in the build) and loads the same better-sqlite3 the service uses.
 */
export class SqliteAppendThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (landed: LandedGroup) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private failure: Error | null = null;
  /** Resolves once the thread's connection is open (or the thread has failed). */
  readonly opened: Promise<void>;

  /**
   * `pragmas`: set on the connection once it is open, in order. `syncLog`: the thread syncs the
   * write-ahead log itself (`fdatasync` of the `-wal` file) after the groups it commits in a row,
   * before it answers them, so that a group's answer is its durable commit.
   */
  constructor(
    path: string,
    pragmas: readonly string[],
    busyTimeoutMs: number,
    private readonly syncLog: boolean,
  ) {
    this.worker = new Worker(APPEND_LOOP, {
      eval: true,
      // Not the parent's flags (e.g. a TypeScript loader): the loop is plain JavaScript.
      execArgv: [],
      workerData: {
        path,
        pragmas,
        busyTimeoutMs,
        syncLog,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(threadError(reply.error));
      else
        waiter?.resolve({
          outcomes: reply.outcomes ?? [],
          synced: reply.syncError ? threadError(reply.syncError) : this.syncLog,
        });
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('The events file’s append thread has stopped')));
    this.opened = this.send<unknown>({ open: true }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Whether the thread has stopped (an error or an exit of its own): every group from now on fails. */
  get stopped(): boolean {
    return this.failure !== null;
  }

  /** Commits a group after every group given before; resolves with its appends' outcomes (and its sync's). */
  commit(request: GroupRequest): Promise<LandedGroup> {
    return this.send({ request });
  }

  /** Closes the connection once every group given before has run, and stops the thread. */
  async close(): Promise<void> {
    if (this.failure) {
      await this.worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolveExit) => this.worker.once('exit', () => resolveExit()));
    await this.send<unknown>({ close: true });
    await exited;
  }

  private send<Answer = LandedGroup>(message: object): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (landed: LandedGroup) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

function threadError(error: { message: string; code: string | null }): Error {
  return Object.assign(new Error(error.message), error.code ? { code: error.code } : {});
}

/**
 * The thread's loop: the groups waiting are committed in order, each its own transaction. When
 * the thread syncs the log, one sync runs at a time on the thread pool while the thread commits
 * the next groups; it answers the groups committed before it began, and the groups committed
 * meanwhile share the next one.
 */
const APPEND_LOOP = `
const { workerData, parentPort, receiveMessageOnPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, fdatasync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
for (const pragma of workerData.pragmas) db.pragma(pragma);
const commitGroup = ${GROUP_COMMIT_SOURCE}(db, createHash);
// The event loop's connection made the file a WAL file: its log exists.
const log = workerData.syncLog ? openSync(workerData.path + '-wal', 'r') : null;
let refusing = false;
/** Committed groups' answers waiting for the next sync. */
let unsynced = [];
let syncing = false;
let closing = null;
const errorOf = (error) => ({ message: String(error && error.message), code: (error && error.code) || null });
function run(message) {
  if (message.open) return parentPort.postMessage({ id: message.id });
  if (message.request.resume) refusing = false;
  if (refusing)
    return parentPort.postMessage({ id: message.id, error: { message: 'Not committed: a group before it failed', code: null } });
  let outcomes;
  try {
    outcomes = commitGroup(message.request);
  } catch (error) {
    refusing = true;
    return parentPort.postMessage({ id: message.id, error: errorOf(error) });
  }
  if (log === null) parentPort.postMessage({ id: message.id, outcomes });
  else unsynced.push({ id: message.id, outcomes });
}
function syncNext() {
  if (syncing) return;
  if (unsynced.length === 0) {
    if (closing !== null) close();
    return;
  }
  const covered = unsynced;
  unsynced = [];
  syncing = true;
  fdatasync(log, (error) => {
    syncing = false;
    for (const reply of covered) {
      if (error) reply.syncError = errorOf(error);
      parentPort.postMessage(reply);
    }
    syncNext();
  });
}
function close() {
  db.close();
  parentPort.postMessage({ id: closing.id });
  parentPort.close();
}
parentPort.on('message', (first) => {
  for (let message = first; message !== undefined; message = receiveMessageOnPort(parentPort)?.message) {
    if (message.close) closing = message;
    else run(message);
  }
  if (log !== null) syncNext();
  else if (closing !== null) close();
});
`;
