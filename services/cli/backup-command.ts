import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STATE_STORE_FILE } from '../../packages/config/data-dir-files.ts';
import { loadConfig } from '../../packages/config/environment.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { BackupRefused, backUpDataDir } from '../backup/back-up-data-dir.ts';
import type { BackupManifest } from '../backup/backup-manifest.ts';
import { byteSize } from '../backup/byte-size.ts';
import { recordLatestBackup } from '../backup/latest-backup.ts';
import type { CliOutput } from './cli-output.ts';

/** `backup <directory>`: a consistent copy of the embedded data directory, taken while the service runs. */
export function registerBackupCommand(program: Command, out: CliOutput): void {
  const { console } = out;
  program
    .command('backup')
    .description(
      'Copy the data directory (the event log, the state store, uploaded files, keys) into a new directory while the service runs; the copy is itself a data directory',
    )
    .argument('<directory>', 'a directory that does not exist yet')
    .option('--json', "print the backup's manifest (backup.json) as JSON")
    .option(
      '--no-verify',
      "skip checking the copied log's hash chains and checkpoints (audit verify) before it is done",
    )
    .action(async (directory: string, options: { json?: boolean; verify: boolean }) => {
      const config = loadConfig(out.env);
      if (config.eventStoreUrl || config.mongodbUrl)
        throw new Error(
          'Backup refused: it copies the embedded profile’s files; with EVENTSTORE_URL or MONGODB_URL set, back up EventStoreDB and MongoDB with their own tools (docs/operations.md, "Backups")',
        );
      let manifest: BackupManifest;
      try {
        manifest = await backUpDataDir({
          dataDir: config.dataDir,
          target: directory,
          keysFromEnvironment: {
            vault: config.vaultKey !== undefined,
            fingerprint: config.fingerprintKey !== undefined,
          },
          verify: options.verify,
          onStep: (step) => void out.stderr.write(`${step}…\n`),
        });
      } catch (error) {
        if (error instanceof BackupRefused) throw new Error(`Backup refused: ${error.message}`);
        throw error;
      }
      try {
        await recordInOriginal(config.dataDir, resolve(directory), manifest);
      } catch (error) {
        // The backup itself is complete (a read-only data directory, a snapshot mounted elsewhere).
        console.error(
          `The backup is complete, but recording it in the data directory's state store failed (${(error as Error).message}): the operator console and /metrics do not show it.`,
        );
      }
      if (options.json) console.log(JSON.stringify(manifest));
      else printManifest(manifest, directory, (line) => console.log(line));
      if (manifest.verification?.firstBreak) {
        // Kept: it is the log as it stands, and the break is the original's too.
        console.error(
          `The copied log does not verify: BROKEN ${JSON.stringify(manifest.verification.firstBreak)}. The backup is kept; check the original with audit verify (docs/audit.md).`,
        );
        out.fail();
      }
      for (const [name, variable] of [
        ['vault', 'VAULT_KEY'],
        ['fingerprint', 'FINGERPRINT_KEY'],
      ] as const)
        if (manifest.keys[name] === 'environment')
          console.error(
            `${variable} comes from the environment, so the backup holds no copy of it: keep it with the backup${name === 'vault' ? ' (without it the stored card numbers and secret keys cannot be read)' : ''}.`,
          );
    });
}

/** The operator console of the original shows its last backup (`docs/operations.md`, "Backups"). */
async function recordInOriginal(dataDir: string, target: string, manifest: BackupManifest): Promise<void> {
  const stateFile = join(dataDir, STATE_STORE_FILE);
  // A data directory the service never started on has none; the service creates it (0600).
  if (!existsSync(stateFile)) return;
  const state = new SqliteDocumentStore(stateFile, { synchronous: 'FULL' });
  try {
    await recordLatestBackup(state, target, manifest);
  } finally {
    await state.close();
  }
}

function printManifest(manifest: BackupManifest, directory: string, print: (line: string) => void): void {
  print(`Backed up ${manifest.dataDir} to ${directory} at ${manifest.createdAt}`);
  print(`  log: ${manifest.log.events} events, up to position ${manifest.log.headPosition}`);
  const checked = manifest.verification;
  print(
    checked === null
      ? '  verified: no (--no-verify)'
      : checked.firstBreak
        ? `  verified: BROKEN after ${checked.events} events`
        : `  verified: intact, ${checked.events} events, ${checked.checkpoints} of ${checked.of} checkpoints`,
  );
  for (const database of manifest.databases)
    print(`  ${database.file}: ${byteSize(database.bytes)}, sha256 ${database.sha256}`);
  print(`  uploaded files: ${manifest.uploadedFiles.count} (${byteSize(manifest.uploadedFiles.bytes)})`);
  const keys = Object.values(manifest.keys).filter((key) => key !== null && key !== 'environment');
  print(`  keys: ${keys.length > 0 ? keys.join(', ') : 'none in the data directory'}`);
  print(
    `Restore: copy ${directory} to an empty place and start the service with DATA_DIR set to it (it builds its read models from the log); check its databases against backup.json with sha256sum`,
  );
}
