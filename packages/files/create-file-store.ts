import { join } from 'node:path';
import { DirectoryFileStore } from './directory-file-store.ts';
import type { FileStore } from './file-store.ts';

/**
 * GridFS when MONGODB_URL is set (distributed profile), a directory under DATA_DIR otherwise
 * (the MongoDB driver is then never loaded), its modes tightened at each start.
 */
export async function createFileStore(options: {
  mongodbUrl: string | undefined;
  dataDir: string;
}): Promise<FileStore> {
  if (!options.mongodbUrl) return DirectoryFileStore.open(join(options.dataDir, 'files'));
  const { GridFsFileStore } = await import('./gridfs-file-store.ts');
  return GridFsFileStore.connect(options.mongodbUrl);
}
