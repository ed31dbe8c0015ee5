import type { Document, DocumentStore } from '../../packages/readstore/document-store.ts';
import type { BackupManifest } from './backup-manifest.ts';

/**
 * The last backup `backup` took of this data directory, kept in its state store for the operator
 * console: what the data directory would lose today if it had to be restored from it.
 */
export interface LatestBackupDoc extends Document {
  id: 'latest';
  /** Where it was written, as given to the command. */
  target: string;
  /** When it was taken (ISO 8601). */
  takenAt: string;
  /** The log it holds: its last position and number of events. */
  headPosition: number;
  events: number;
  /** The databases' and uploaded files' bytes together. */
  bytes: number;
  /** Its log as the backup's check found it: intact, broken, or not checked (`--no-verify`). */
  log: 'intact' | 'broken' | 'not verified';
}

const records = (stateStore: DocumentStore) => stateStore.collection<LatestBackupDoc>('backups');

export async function recordLatestBackup(
  stateStore: DocumentStore,
  target: string,
  manifest: BackupManifest,
): Promise<void> {
  await records(stateStore).put({
    id: 'latest',
    created: Math.floor(Date.parse(manifest.createdAt) / 1000),
    target,
    takenAt: manifest.createdAt,
    headPosition: manifest.log.headPosition,
    events: manifest.log.events,
    bytes: manifest.databases.reduce((sum, database) => sum + database.bytes, manifest.uploadedFiles.bytes),
    log: manifest.verification === null ? 'not verified' : manifest.verification.firstBreak ? 'broken' : 'intact',
  });
}

export function latestBackup(stateStore: DocumentStore): Promise<LatestBackupDoc | null> {
  return records(stateStore).get('latest');
}

/** A copy (a backup) is in no backup yet: the record is of the original's backups. */
export async function forgetLatestBackup(stateStore: DocumentStore): Promise<void> {
  await records(stateStore).delete('latest');
}
