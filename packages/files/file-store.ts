/**
 * FileStore port: the bytes of uploaded files, by file id. The upload event records only what
 * the file is (purpose, size, type); the bytes live here. Two adapters pass one contract suite
 * (`test/contract/file-store.contract.ts`): a directory under DATA_DIR (embedded profile) and
 * MongoDB GridFS (distributed).
 */
export interface FileStore {
  /** Stores the bytes under `fileId`; storing the same id again replaces them. */
  save(fileId: string, bytes: Buffer): Promise<void>;
  /** The bytes stored under `fileId`, or null when there are none. */
  read(fileId: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** File ids are `file_<base62>`; anything else never names a stored file (and never reaches a path). */
const FILE_ID = /^file_[A-Za-z0-9]{1,100}$/;

export function assertFileId(fileId: string): void {
  if (!FILE_ID.test(fileId)) throw new Error(`Not a file id: ${JSON.stringify(fileId.slice(0, 40))}`);
}

export const isFileId = (fileId: string): boolean => FILE_ID.test(fileId);
