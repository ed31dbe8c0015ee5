import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { EVENT_LOG_FILE, STATE_STORE_FILE } from '../../packages/config/data-dir-files.ts';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from '../../packages/config/private-data-dir.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { isFileId } from '../../packages/files/file-store.ts';
import { KEY_FILES } from '../../packages/vault/vault-key.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { LogCheckpoints, type LogCheckpoint } from '../audit/log-checkpoints.ts';
import { verifyLog } from '../audit/verify-log.ts';
import { projectionsLease } from '../projector/lease.ts';
import { forgetReadStoreBuild } from '../projector/read-store-build-progress.ts';
import {
  BACKUP_MANIFEST,
  type BackedUpFile,
  type BackupManifest,
  type CopyVerification,
  type KeySource,
} from './backup-manifest.ts';
import { forgetLatestBackup } from './latest-backup.ts';

/**
 * The embedded databases a backup copies, in this order: the state store before the log, so that
 * whatever the state records about the log (audit checkpoints, projection positions, finished
 * jobs) is in the copy of the log too. A log newer than the state is what a crash leaves, and a
 * start catches up from it; a state newer than its log is not. The read store is left out: it is
 * built again from the log (`docs/operations.md`, "Backups").
 */
const DATABASES = [STATE_STORE_FILE, EVENT_LOG_FILE] as const;

export class BackupRefused extends Error {}

export interface BackupOptions {
  dataDir: string;
  target: string;
  /** The keys set in the environment (VAULT_KEY, FINGERPRINT_KEY): a key file in DATA_DIR is then not the one in use. */
  keysFromEnvironment: { vault: boolean; fingerprint: boolean };
  /** Check the copied log's hash chains and checkpoints (`audit verify`) before the backup is done. */
  verify: boolean;
  /** Told of each step as it begins ("Copying events.sqlite"). */
  onStep?: (step: string) => void;
}

/**
 * A consistent copy of an embedded data directory, made while the service runs: each database
 * through SQLite's online backup in one step (one read transaction: the service's writers go on,
 * and the copy is the database as of one commit), the uploaded files after the log (every file
 * the copied log names was stored before its event), the key files, and a manifest. The copy is
 * made beside the target and renamed into place at the end, so a target that exists is complete.
 * The backup directory is itself a data directory: a service started on it serves what was copied.
 */
export async function backUpDataDir(options: BackupOptions): Promise<BackupManifest> {
  const dataDir = resolve(options.dataDir);
  const target = resolve(options.target);
  if (!existsSync(join(dataDir, EVENT_LOG_FILE)))
    throw new BackupRefused(`${dataDir} holds no event log (${EVENT_LOG_FILE}): nothing to back up`);
  if (existsSync(target)) throw new BackupRefused(`${target} already exists: a backup goes into a new directory`);
  if (target === dataDir || target.startsWith(dataDir + '/'))
    throw new BackupRefused(`${target} is inside the data directory: a backup goes elsewhere`);

  await mkdir(dirname(target), { recursive: true });
  await removeKilledRuns(target);
  const staging = join(
    dirname(target),
    `.${basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}.partial`,
  );
  await mkdir(staging, { mode: PRIVATE_DIRECTORY_MODE });
  await chmod(staging, PRIVATE_DIRECTORY_MODE);
  try {
    const copied = DATABASES.filter((name) => existsSync(join(dataDir, name)));
    for (const name of copied) {
      options.onStep?.(`Copying ${name}`);
      await copyDatabase(join(dataDir, name), join(staging, name));
    }
    const checkpoints = copied.includes(STATE_STORE_FILE) ? await copiedState(join(staging, STATE_STORE_FILE)) : [];
    if (options.verify) options.onStep?.('Checking the copied log (audit verify)');
    const verification = options.verify ? await verifyCopiedLog(join(staging, EVENT_LOG_FILE), checkpoints) : null;
    const databases: BackedUpFile[] = [];
    for (const name of copied) {
      await makeSelfContained(join(staging, name));
      databases.push(await sizeAndDigest(staging, name));
    }
    options.onStep?.('Copying the uploaded files and the keys');
    const uploadedFiles = await copyUploadedFiles(join(dataDir, 'files'), join(staging, 'files'));
    const keys = {
      vault: await copyKey(dataDir, staging, KEY_FILES.vault, options.keysFromEnvironment.vault),
      fingerprint: await copyKey(dataDir, staging, KEY_FILES.fingerprint, options.keysFromEnvironment.fingerprint),
    };
    const manifest: BackupManifest = {
      createdAt: new Date().toISOString(),
      dataDir,
      log: logIn(join(staging, EVENT_LOG_FILE)),
      databases,
      uploadedFiles,
      keys,
      verification,
    };
    await writeFile(join(staging, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE_MODE,
      flush: true,
    });
    await syncPath(staging);
    await rename(staging, target);
    await syncPath(dirname(target));
    return manifest;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * What a run into the same target that was killed left beside it (`.<name>.<pid>-<random>.partial`,
 * its process gone): a failed run removes its own, a killed one cannot.
 */
async function removeKilledRuns(target: string): Promise<void> {
  const prefix = `.${basename(target)}.`;
  for (const name of await readdir(dirname(target))) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const pid = /^(\d+)-[0-9a-f]{12}$/.exec(name.slice(prefix.length, -'.partial'.length))?.[1];
    if (pid !== undefined && !processAlive(Number(pid)))
      await rm(join(dirname(target), name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** All pages in one step: one read transaction, so no commit of the service lands half in the copy. */
async function copyDatabase(source: string, destination: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(destination, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  } finally {
    db.close();
  }
  await chmod(destination, PRIVATE_FILE_MODE);
}

/**
 * The copied state without what is the original's own, and the log checkpoints it holds. Its
 * leases and read store build are the original's processes', which never run on the copy: a
 * service started on it would otherwise wait for them to expire. Its record of the last backup is
 * the original's too.
 */
async function copiedState(stateFile: string): Promise<LogCheckpoint[]> {
  const state = new SqliteDocumentStore(stateFile);
  try {
    await projectionsLease(state).forget();
    await forgetReadStoreBuild(state);
    await forgetLatestBackup(state);
    return await new LogCheckpoints(state).all();
  } finally {
    await state.close();
  }
}

/** The copy's log checked as `audit verify` checks a data directory's, against the copied checkpoints. */
async function verifyCopiedLog(eventsFile: string, checkpoints: LogCheckpoint[]): Promise<CopyVerification> {
  const events = new SqliteEventStore(eventsFile);
  try {
    const result = await verifyLog(events, { checkpoints });
    return {
      events: result.checked,
      checkpoints: result.checkpoints,
      of: checkpoints.length,
      firstBreak: result.firstBreak,
    };
  } finally {
    await events.close();
  }
}

/** One file (no -wal beside it) to keep or move, on disk; a service started on it turns WAL on again. */
async function makeSelfContained(file: string): Promise<void> {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  await syncPath(file);
}

function logIn(eventsFile: string): BackupManifest['log'] {
  const db = new Database(eventsFile, { readonly: true, fileMustExist: true });
  // Read-only and in DELETE mode: nothing is written beside the copy.
  try {
    const { head, events } = db
      .prepare<[], { head: number | null; events: number }>(
        'SELECT MAX(position) AS head, COUNT(*) AS events FROM events',
      )
      .get()!;
    return { headPosition: head ?? 0, events };
  } finally {
    db.close();
  }
}

async function copyUploadedFiles(source: string, destination: string): Promise<BackupManifest['uploadedFiles']> {
  await mkdir(destination, { mode: PRIVATE_DIRECTORY_MODE });
  await chmod(destination, PRIVATE_DIRECTORY_MODE);
  // Only stored files: a `.file_….partial` is an upload still being written, whose event is not in the copied log.
  const names = existsSync(source) ? (await readdir(source)).filter(isFileId) : [];
  let bytes = 0;
  for (const name of names) {
    await copyFile(join(source, name), join(destination, name));
    await chmod(join(destination, name), PRIVATE_FILE_MODE);
    await syncPath(join(destination, name));
    bytes += (await stat(join(destination, name))).size;
  }
  await syncPath(destination);
  return { count: names.length, bytes };
}

async function copyKey(dataDir: string, staging: string, name: string, fromEnvironment: boolean): Promise<KeySource> {
  if (fromEnvironment) return 'environment';
  if (!existsSync(join(dataDir, name))) return null;
  await copyFile(join(dataDir, name), join(staging, name));
  await chmod(join(staging, name), PRIVATE_FILE_MODE);
  await syncPath(join(staging, name));
  return name;
}

async function sizeAndDigest(directory: string, file: string): Promise<BackedUpFile> {
  const path = join(directory, file);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { file, bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

/** On disk before the backup says it is done (a file's data, a directory's entries). */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
