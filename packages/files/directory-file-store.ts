import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertFileId, isFileId, type FileStore } from './file-store.ts';

/**
 * Files as plain files in one directory (embedded profile: `DATA_DIR/files`). A file is written
 * under a temporary name and renamed into place, so a reader never sees half a file.
 */
export class DirectoryFileStore implements FileStore {
  private ready: Promise<unknown> | null = null;

  constructor(private readonly directory: string) {}

  async save(fileId: string, bytes: Buffer): Promise<void> {
    assertFileId(fileId);
    this.ready ??= mkdir(this.directory, { recursive: true });
    await this.ready;
    const partial = join(this.directory, `.${fileId}.${randomUUID()}.partial`);
    try {
      await writeFile(partial, bytes, { flush: true });
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
}
