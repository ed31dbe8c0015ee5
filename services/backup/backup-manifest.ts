/** The manifest a backup writes last, beside what it copied (`docs/operations.md`, "Backups"). */
export const BACKUP_MANIFEST = 'backup.json';

/** A file of the backup with its size and SHA-256, to check the copy against later. */
export interface BackedUpFile {
  file: string;
  bytes: number;
  sha256: string;
}

/** Where a key of the backup is: its file in the backup, or the environment the service reads it from. */
export type KeySource = string | 'environment' | null;

/** `audit verify` of the copied log: its hash chains and the checkpoints the copied state holds. */
export interface CopyVerification {
  events: number;
  /** Checkpoints found intact, of how many the copied state holds. */
  checkpoints: number;
  of: number;
  /** The first break, as `audit verify` reports it; null when the copy is intact. */
  firstBreak: object | null;
}

/** What `backup.json` records about a backup. */
export interface BackupManifest {
  createdAt: string;
  dataDir: string;
  /** The log in the backup: its last position and how many events it holds. */
  log: { headPosition: number; events: number };
  databases: BackedUpFile[];
  uploadedFiles: { count: number; bytes: number };
  keys: { vault: KeySource; fingerprint: KeySource };
  /** Null when the backup was taken with `--no-verify`. */
  verification: CopyVerification | null;
}
