import { EventEmitter } from 'node:events';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import type {
  Collection,
  CollectionOptions,
  Document,
  DocumentStore,
  FieldValue,
  ListPage,
  ListQuery,
  UntypedDocument,
} from './document-store.ts';
import { SqliteDocumentStore, type SqliteDocumentStoreOptions } from './sqlite-document-store.ts';
import type { SqliteCollection } from './sqlite-collection.ts';

/** The file that names the read store being served; without it, `read.sqlite`. */
export const CURRENT_READ_FILE_POINTER = 'read.current';
const FIRST_READ_FILE = 'read.sqlite';
/** Read store files: `read.sqlite`, and the files of rebuilds, `read.<time>.sqlite`. */
const READ_FILE = /^read(\.\d+)?\.sqlite$/;
const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];
/** How often a process looks at the pointer for a switch made by another process. */
const FOLLOW_INTERVAL_MS = 200;
/** How long a replaced file stays open for work that started on it before the switch. */
const CLOSE_GRACE_MS = 5_000;
const PRIVATE_FILE_MODE = 0o600;

interface ReadFileEvents {
  /** Another file serves from now on (its path). */
  switched: [path: string];
}

/**
 * The embedded read store as a sequence of files (`docs/architecture.md`, "Blue/green
 * rebuilds"): the one named by `read.current` (else `read.sqlite`) serves. A full rebuild writes
 * a new file beside it that nobody reads, then `switchTo` replaces the pointer in one rename,
 * after which every process of the data directory serves the new file: this one at once, others
 * within `FOLLOW_INTERVAL_MS` (`followSwitches`). The replaced file is deleted after a grace period.
 * Delegates every operation to the store of the current file.
 */
export class SqliteReadFiles extends EventEmitter<ReadFileEvents> implements DocumentStore {
  private current: SqliteDocumentStore;
  private currentFile: string;
  private followTimer: NodeJS.Timeout | null = null;
  private readonly closeTimers = new Set<NodeJS.Timeout>();
  private readonly replaced = new Set<SqliteDocumentStore>();

  constructor(
    readonly dataDir: string,
    private readonly options: SqliteDocumentStoreOptions = {},
  ) {
    super();
    this.currentFile = currentReadFile(dataDir);
    this.current = new SqliteDocumentStore(this.path(this.currentFile), options);
  }

  /** Path of the file that serves now. */
  get currentPath(): string {
    return this.path(this.currentFile);
  }

  /** The store of the file that serves now. */
  get store(): SqliteDocumentStore {
    return this.current;
  }

  /** Notices switches made by other processes (a rebuilding CLI, the projector of another process). */
  followSwitches(): void {
    if (this.followTimer) return;
    this.followTimer = setInterval(() => {
      const named = currentReadFile(this.dataDir);
      if (named !== this.currentFile) this.serve(named);
    }, FOLLOW_INTERVAL_MS);
    this.followTimer.unref();
  }

  /**
   * A path for a new read store file that nobody reads, created empty with the data directory's
   * file mode. Files left by a rebuild that did not finish (a crash) are deleted first: the
   * caller makes sure no other rebuild runs.
   */
  newFile(): string {
    for (const name of readdirSync(this.dataDir))
      if (READ_FILE.test(name) && name !== this.currentFile) removeDatabase(this.path(name));
    const path = this.path(`read.${Date.now()}.sqlite`);
    closeSync(openSync(path, 'w', PRIVATE_FILE_MODE));
    return path;
  }

  /**
   * Serves `path` from now on: the pointer is replaced atomically and durably (a crash leaves
   * either file serving, whole), and this process reads it at once. The file must be complete
   * and synced.
   */
  switchTo(path: string): void {
    const name = basename(path);
    if (!READ_FILE.test(name) || !existsSync(this.path(name))) throw new Error(`Not a read store file: ${path}`);
    const pointer = this.path(CURRENT_READ_FILE_POINTER);
    const written = `${pointer}.${process.pid}`;
    // The replaced file names its successor first: a process that reads it after this point
    // moves on from what it read there, before it has looked at the pointer.
    if (name !== this.currentFile) this.current.markReplacedBy(name);
    writeFileSync(written, `${name}\n`, { mode: PRIVATE_FILE_MODE });
    syncPath(written, 'r+');
    renameSync(written, pointer);
    syncPath(this.dataDir, 'r');
    this.serve(name);
  }

  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): Collection<T> {
    return new FollowingCollection<T>(this, name, options);
  }

  /**
   * Runs a read on the file that serves, and again on its successor when that file turns out to
   * have been replaced by then (`markReplacedBy`): what a replaced file holds may be older than a
   * write another process has already acknowledged from the new one. The successor is complete
   * up to the switch, so the second answer is never older than the first.
   */
  async read<R>(read: (store: SqliteDocumentStore) => Promise<R>): Promise<R> {
    let result = await read(this.current);
    while (this.moveToSuccessor()) result = await read(this.current);
    return result;
  }

  /**
   * `read` of one document by id, with the successor read by the document's own statement: one
   * SQLite statement a read instead of two (each takes and releases the file's read lock).
   */
  documentById<T extends Document>(
    collection: (store: SqliteDocumentStore) => SqliteCollection<T>,
    id: string,
  ): T | null {
    for (;;) {
      const { doc, successor } = collection(this.current).getWithSuccessor(id);
      if (!this.moveTo(successor === undefined ? this.current.replacedBy() : successor)) return doc;
    }
  }

  commitProjection(...args: Parameters<DocumentStore['commitProjection']>): Promise<void> {
    return this.current.commitProjection(...args);
  }

  bulkWrites(enabled: boolean): void {
    this.current.bulkWrites(enabled);
  }

  getCheckpoint(key: string): Promise<number | null> {
    return this.read((store) => store.getCheckpoint(key));
  }

  dropCollection(name: string): Promise<void> {
    return this.current.dropCollection(name);
  }

  listCollections(prefix?: string): Promise<string[]> {
    return this.current.listCollections(prefix);
  }

  async close(): Promise<void> {
    if (this.followTimer) clearInterval(this.followTimer);
    for (const timer of this.closeTimers) clearTimeout(timer);
    this.closeTimers.clear();
    for (const store of this.replaced) await store.close();
    this.replaced.clear();
    await this.current.close();
  }

  private moveToSuccessor(): boolean {
    return this.moveTo(this.current.replacedBy());
  }

  /** Serves `successor` instead of the current file, when it names another file that is there. */
  private moveTo(successor: string | null): boolean {
    if (successor === null || successor === this.currentFile || !existsSync(this.path(successor))) return false;
    this.serve(successor);
    return true;
  }

  private serve(name: string): void {
    const previous = this.current;
    const previousPath = this.currentPath;
    this.current = new SqliteDocumentStore(this.path(name), this.options);
    this.currentFile = name;
    this.replaced.add(previous);
    const timer = setTimeout(() => {
      this.closeTimers.delete(timer);
      this.replaced.delete(previous);
      void previous.close().finally(() => removeDatabase(previousPath));
    }, CLOSE_GRACE_MS);
    timer.unref();
    this.closeTimers.add(timer);
    this.emit('switched', this.currentPath);
  }

  private path(name: string): string {
    return join(this.dataDir, name);
  }
}

/**
 * A collection of whichever file serves: each read checks, after reading, that its file had not
 * been replaced meanwhile (`SqliteReadFiles.read`). Writes go to the serving file: only the
 * process that switches writes read models.
 */
class FollowingCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly files: SqliteReadFiles,
    readonly name: string,
    private readonly options: CollectionOptions | undefined,
  ) {}

  get(id: string): Promise<T | null> {
    try {
      return Promise.resolve(this.files.documentById((store) => this.in(store), id));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  getMany(ids: string[]): Promise<T[]> {
    return this.files.read((store) => this.in(store).getMany(ids));
  }

  list(query: ListQuery): Promise<ListPage<T>> {
    return this.files.read((store) => this.in(store).list(query));
  }

  count(filter?: Record<string, FieldValue>): Promise<number> {
    return this.files.read((store) => this.in(store).count(filter));
  }

  insert(doc: T): Promise<boolean> {
    return this.in(this.files.store).insert(doc);
  }

  put(doc: T): Promise<void> {
    return this.in(this.files.store).put(doc);
  }

  delete(id: string): Promise<boolean> {
    return this.in(this.files.store).delete(id);
  }

  private in(store: SqliteDocumentStore): SqliteCollection<T> {
    return store.collection<T>(this.name, this.options);
  }
}

/** The name of the read store file that serves in a data directory. */
export function currentReadFile(dataDir: string): string {
  try {
    const named = readFileSync(join(dataDir, CURRENT_READ_FILE_POINTER), 'utf8').trim();
    if (READ_FILE.test(named)) return named;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return FIRST_READ_FILE;
}

function removeDatabase(path: string): void {
  for (const suffix of SQLITE_COMPANIONS) rmSync(path + suffix, { force: true });
}

function syncPath(path: string, flags: 'r' | 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
