import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from '../config/private-data-dir.ts';
import { assertFileId, isFileId, type FileStore } from './file-store.ts';

/**
 * Files as plain files in one directory (embedded profile: `DATA_DIR/files`). A file is written
 * under a temporary name and renamed into place, so a reader never sees half a file. Like the rest
 * of DATA_DIR, only the service's user may read them: the directory is 0700, the files 0600.
 */
export class DirectoryFileStore implements FileStore {
  private ready: Promise<unknown> | null = null;

  constructor(private readonly directory: string) {}

  /** The store of `directory`, with the directory and the files already in it tightened to 0700 / 0600. */
  static async open(directory: string): Promise<DirectoryFileStore> {
    const store = new DirectoryFileStore(directory);
    await store.prepared();
    // Files written by an older installation, or copied in by a restore, may be looser.
    const entries = await readdir(directory, { withFileTypes: true });
    await Promise.all(
      entries.filter((entry) => entry.isFile()).map((entry) => chmod(join(directory, entry.name), PRIVATE_FILE_MODE)),
    );
    return store;
  }

  async save(fileId: string, bytes: Buffer): Promise<void> {
    assertFileId(fileId);
    await this.prepared();
    const partial = join(this.directory, `.${fileId}.${randomUUID()}.partial`);
    try {
      await writeFile(partial, bytes, { flush: true, mode: PRIVATE_FILE_MODE });
      await rename(partial, join(this.directory, fileId));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async read(fileId: string): Promise<Buffer | null> {
    if (!isFileId(fileId)) return null;
    try {
      return await readFile(join(this.directory, fileId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async close(): Promise<void> {}

  /** Creates the directory at 0700 (mkdir's mode is narrowed by the umask, never widened: chmod sets it). */
  private prepared(): Promise<unknown> {
    this.ready ??= mkdir(this.directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE }).then(() =>
      chmod(this.directory, PRIVATE_DIRECTORY_MODE),
    );
    return this.ready;
  }
}
