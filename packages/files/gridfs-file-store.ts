import { GridFSBucket, MongoClient, type Db } from 'mongodb';
import { assertFileId, isFileId, type FileStore } from './file-store.ts';

/**
 * Files in MongoDB GridFS (distributed profile: database `payments_files`, bucket `files`), so
 * every API process reads what any of them stored. A file's GridFS name is its file id; storing
 * an id again uploads the new bytes first and then removes the older copies, so a reader always
 * finds one complete version.
 */
export class GridFsFileStore implements FileStore {
  private readonly bucket: GridFSBucket;

  private constructor(
    private readonly client: MongoClient,
    db: Db,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: 'files' });
  }

  static async connect(url: string, dbName = 'payments_files'): Promise<GridFsFileStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new GridFsFileStore(client, client.db(dbName));
  }

  async save(fileId: string, bytes: Buffer): Promise<void> {
    assertFileId(fileId);
    const older = await this.bucket.find({ filename: fileId }).toArray();
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStream(fileId);
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(bytes);
    });
    for (const file of older) await this.bucket.delete(file._id);
  }

  async read(fileId: string): Promise<Buffer | null> {
    if (!isFileId(fileId)) return null;
    const [latest] = await this.bucket.find({ filename: fileId }).sort({ uploadDate: -1, _id: -1 }).limit(1).toArray();
    if (!latest) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(latest._id)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
