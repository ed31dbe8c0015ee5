import type { Command } from 'commander';
import { loadConfig } from '../../packages/config/environment.ts';
import { BackupRefused, backUpDataDir, type BackupManifest } from '../backup/back-up-data-dir.ts';
import type { CliOutput } from './cli-output.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
const size = (bytes: number): string =>
  bytes < MIB ? `${(bytes / KIB).toFixed(1)} KiB` : `${(bytes / MIB).toFixed(1)} MiB`;

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
    .action(async (directory: string, options: { json?: boolean }) => {
      const config = loadConfig(out.env);
      if (config.eventStoreUrl || config.mongodbUrl)
        throw new Error(
          'backup copies the embedded profile’s files; with EVENTSTORE_URL or MONGODB_URL set, back up EventStoreDB and MongoDB with their own tools (docs/operations.md, "Backups")',
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
          onPart: (part) => void out.stderr.write(`Copying ${part}…\n`),
        });
      } catch (error) {
        if (error instanceof BackupRefused) throw new Error(`Backup refused: ${error.message}`);
        throw error;
      }
      if (options.json) console.log(JSON.stringify(manifest));
      else printManifest(manifest, directory, (line) => console.log(line));
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

function printManifest(manifest: BackupManifest, directory: string, print: (line: string) => void): void {
  print(`Backed up ${manifest.dataDir} to ${directory} at ${manifest.createdAt}`);
  print(`  log: ${manifest.log.events} events, up to position ${manifest.log.headPosition}`);
  for (const database of manifest.databases)
    print(`  ${database.file}: ${size(database.bytes)}, sha256 ${database.sha256}`);
  print(`  uploaded files: ${manifest.uploadedFiles.count} (${size(manifest.uploadedFiles.bytes)})`);
  const keys = Object.values(manifest.keys).filter((key) => key !== null && key !== 'environment');
  print(`  keys: ${keys.length > 0 ? keys.join(', ') : 'none in the data directory'}`);
  print(
    `Restore: start the service with DATA_DIR=${directory} (it builds its read models from the log); check the log with DATA_DIR=${directory} npm run cli -- audit verify`,
  );
}
