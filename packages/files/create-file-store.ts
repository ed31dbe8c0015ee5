import { join } from 'node:path';
import { DirectoryFileStore } from './directory-file-store.ts';
import type { FileStore } from './file-store.ts';
import { GridFsFileStore } from './gridfs-file-store.ts';

/** GridFS when MONGODB_URL is set (distributed profile), a directory under DATA_DIR otherwise. */
export function createFileStore(options: { mongodbUrl: string | undefined; dataDir: string }): Promise<FileStore> {
  return options.mongodbUrl
    ? GridFsFileStore.connect(options.mongodbUrl)
    : Promise.resolve(new DirectoryFileStore(join(options.dataDir, 'files')));
}
