import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';

/**
 * The statements of one transaction, flat (one array crosses to the thread faster than one per
 * statement): for each, the index of its SQL text in the transaction's `statements` (each text
 * crosses once), the number of its parameters, then the parameters. A statement without
 * parameters may be several (schema changes). A step of one of the thread's own operations
 * (`SqliteWriterThreadOptions.operations`) has -1 minus the operation's number in place of the SQL.
 */
export type WriterSteps = unknown[];

export interface SqliteWriterThreadOptions {
  /**
   * JavaScript source of a function `(db, statement) => ({ writes, reads })` that the thread calls
   * once its connection is open: `writes[k](steps, i)` runs a step of operation k (its parameters
   * from `steps[i]` on), `reads[k](...args)` answers `read(k, args)`. For what the thread keeps
   * besides SQLite (a build's rows by id).
   */
  operations?: string;
}

interface Reply {
  id: number;
  error?: string;
  value?: unknown;
}

/**
 * A SQLite connection of its own on a worker thread, that runs writes in the order they are given
 * while the calling thread goes on: what a bulk write costs in SQLite (row and index inserts, the
 * commit) then runs on the machine's other core. Writes go into one open transaction (begun by
 * the first write after a commit) until a write asks for the commit: so several writes can share
 * one commit, and the pages they all touch (random id-index pages) are written to the file once.
 * Each `write` resolves once run (and committed, when it asks for the commit), or rejects with
 * SQLite's error: the whole open transaction is then rolled back; when what it rolled back
 * includes writes that had resolved, every later write fails with that error (a transaction of
 * its own that fails takes nothing else with it, and the next one runs). Prepared
 * statements are kept by their text for the connection's life.
 *
 * The thread is plain JavaScript evaluated in it (no module of ours to resolve, the same under
 * tsx and in the build) and loads the same better-sqlite3 the service uses.
 */
export class SqliteWriterThread {
  private readonly worker: Worker;
  /** Reads go on a port of their own: the thread answers them between two writes, before the writes queued after. */
  private readonly reads: MessagePort;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;

  /** `pragmas`: set on the connection once it is open, in order (e.g. `journal_mode = MEMORY`). */
  constructor(path: string, pragmas: readonly string[], options: SqliteWriterThreadOptions = {}) {
    const reads = new MessageChannel();
    this.reads = reads.port1;
    this.worker = new Worker(WRITER_LOOP, {
      eval: true,
      // Not the parent's flags (e.g. a TypeScript loader): the loop is plain JavaScript.
      execArgv: [],
      workerData: {
        path,
        pragmas,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        operations: options.operations ?? null,
        reads: reads.port2,
      },
      transferList: [reads.port2],
    });
    const answer = (reply: Reply): void => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error === undefined) waiter?.resolve(reply.value);
      else waiter?.reject(new Error(reply.error));
    };
    this.worker.on('message', answer);
    this.reads.on('message', answer);
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('The SQLite writer thread has stopped')));
  }

  /** Whether the thread has stopped (an error or an exit of its own): every write from now on fails. */
  get stopped(): boolean {
    return this.failure !== null;
  }

  /**
   * Runs `steps` after every write given before, in the open transaction (BEGIN IMMEDIATE if none
   * is open); with `commit`, then commits it.
   */
  write(statements: readonly string[], steps: WriterSteps, commit: boolean): Promise<void> {
    return this.send({ statements, steps, commit }) as Promise<void>;
  }

  /**
   * Answers with read operation `operation` of the thread's own (`options.operations`), as soon
   * as the thread is between two writes: it sees every write that has run, in the open
   * transaction too, but not the writes still queued (the caller knows what they hold).
   */
  read(operation: number, args: readonly unknown[]): Promise<unknown> {
    return this.send({ operation, args }, this.reads);
  }

  /** Runs `steps` in a transaction of their own (BEGIN IMMEDIATE … COMMIT) after every write given before. */
  transaction(statements: readonly string[], steps: WriterSteps): Promise<void> {
    return this.write(statements, steps, true);
  }

  /** Closes the connection once every write given before has run, and stops the thread; what was not committed is rolled back. */
  async close(): Promise<void> {
    if (this.failure) {
      this.reads.close();
      await this.worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolveExit) => this.worker.once('exit', () => resolveExit()));
    await this.send({ close: true });
    await exited;
    this.reads.close();
  }

  /** Posts `message` to the thread, on the writes' queue or on the reads' port, and resolves with its reply. */
  private send(message: object, to: Worker | MessagePort = this.worker): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      to.postMessage({ id, ...message });
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.reads.close();
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/**
 * The thread's loop: one write per message, in order, into the open transaction; a failure rolls
 * it back, and ends the writes when it rolled back earlier ones. Reads are answered between writes.
 */
const WRITER_LOOP = `
const { workerData, parentPort, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
for (const pragma of workerData.pragmas) db.pragma(pragma);
const prepared = new Map();
function statement(sql) {
  let found = prepared.get(sql);
  if (!found) {
    found = db.prepare(sql);
    prepared.set(sql, found);
  }
  return found;
}
const operations = workerData.operations === null
  ? { writes: [], reads: [] }
  : new Function('return (' + workerData.operations + ')')()(db, statement);
function run(statements, steps) {
  for (let i = 0; i < steps.length; ) {
    if (steps[i] < 0) {
      operations.writes[-1 - steps[i]](steps, i + 2);
      i += 2 + steps[i + 1];
      continue;
    }
    const sql = statements[steps[i]];
    const count = steps[i + 1];
    i += 2;
    if (count === 0) db.exec(sql);
    else if (count === 6) statement(sql).run(steps[i], steps[i + 1], steps[i + 2], steps[i + 3], steps[i + 4], steps[i + 5]);
    else if (count === 2) statement(sql).run(steps[i], steps[i + 1]);
    else statement(sql).run(...steps.slice(i, i + count));
    i += count;
  }
}
const reads = workerData.reads;
function answer(message) {
  try {
    reads.postMessage({ id: message.id, value: operations.reads[message.operation](...message.args) });
  } catch (error) {
    reads.postMessage({ id: message.id, error: String(error && error.message) });
  }
}
reads.on('message', answer);
function answerReads() {
  for (let read = receiveMessageOnPort(reads); read; read = receiveMessageOnPort(reads)) answer(read.message);
}
let failure = null;
parentPort.on('message', (message) => {
  answerReads();
  if (message.close) {
    db.close();
    parentPort.postMessage({ id: message.id });
    reads.close();
    parentPort.close();
    return;
  }
  if (failure !== null) {
    parentPort.postMessage({ id: message.id, error: failure });
    return;
  }
  const joined = db.inTransaction;
  try {
    if (!joined) db.exec('BEGIN IMMEDIATE');
    run(message.statements, message.steps);
    if (message.commit) db.exec('COMMIT');
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    const reason = String(error && error.message);
    if (db.inTransaction) db.exec('ROLLBACK');
    // Writes answered before this one were rolled back with it: none may follow as if they held.
    if (joined) failure = reason;
    parentPort.postMessage({ id: message.id, error: reason });
  }
});
`;
