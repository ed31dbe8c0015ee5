import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** Only the service's own user may list, read or write the data directory and its files. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Suffixes of the files SQLite keeps beside a database. */
const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Creates DATA_DIR (0700) and makes sure the embedded databases and key files in it are 0600
 * before anything opens them. A database file is created empty with mode 0600 when missing:
 * SQLite creates its -wal and -shm files with the permissions of the database file, so they
 * follow. Files of an older installation with looser modes are tightened.
 */
export function preparePrivateDataDir(dataDir: string, databases: string[], keyFiles: string[]): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dataDir, PRIVATE_DIRECTORY_MODE);
  for (const database of databases) {
    const path = join(dataDir, database);
    if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
    for (const suffix of SQLITE_COMPANIONS) tighten(path + suffix);
  }
  for (const keyFile of keyFiles) tighten(join(dataDir, keyFile));
}

function tighten(path: string): void {
  if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}
