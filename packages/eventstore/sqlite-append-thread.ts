import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { GROUP_COMMIT_SOURCE, type GroupOutcomes, type GroupRequest } from './sqlite-group-commit.ts';

interface Reply {
  id: number;
  outcomes?: GroupOutcomes;
  error?: { message: string; code: string | null };
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
    { resolve: (outcomes: GroupOutcomes) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private failure: Error | null = null;
  /** Resolves once the thread's connection is open (or the thread has failed). */
  readonly opened: Promise<void>;

  /** `pragmas`: set on the connection once it is open, in order. */
  constructor(path: string, pragmas: readonly string[], busyTimeoutMs: number) {
    this.worker = new Worker(APPEND_LOOP, {
      eval: true,
      // Not the parent's flags (e.g. a TypeScript loader): the loop is plain JavaScript.
      execArgv: [],
      workerData: {
        path,
        pragmas,
        busyTimeoutMs,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error === undefined) waiter?.resolve(reply.outcomes ?? []);
      else
        waiter?.reject(
          Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}),
        );
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('The events file’s append thread has stopped')));
    this.opened = this.send({ open: true }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Whether the thread has stopped (an error or an exit of its own): every group from now on fails. */
  get stopped(): boolean {
    return this.failure !== null;
  }

  /** Commits a group after every group given before; resolves with its appends' outcomes. */
  commit(request: GroupRequest): Promise<GroupOutcomes> {
    return this.send({ request });
  }

  /** Closes the connection once every group given before has run, and stops the thread. */
  async close(): Promise<void> {
    if (this.failure) {
      await this.worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolveExit) => this.worker.once('exit', () => resolveExit()));
    await this.send({ close: true });
    await exited;
  }

  private send(message: object): Promise<GroupOutcomes> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<GroupOutcomes>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/** The thread's loop: one group per message, in order, each its own transaction. */
const APPEND_LOOP = `
const { workerData, parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
for (const pragma of workerData.pragmas) db.pragma(pragma);
const commitGroup = ${GROUP_COMMIT_SOURCE}(db, createHash);
let refusing = false;
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.postMessage({ id: message.id });
    parentPort.close();
    return;
  }
  if (message.open) {
    parentPort.postMessage({ id: message.id });
    return;
  }
  if (message.request.resume) refusing = false;
  if (refusing) {
    parentPort.postMessage({ id: message.id, error: { message: 'Not committed: a group before it failed', code: null } });
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, outcomes: commitGroup(message.request) });
  } catch (error) {
    refusing = true;
    parentPort.postMessage({
      id: message.id,
      error: { message: String(error && error.message), code: (error && error.code) || null },
    });
  }
});
`;
