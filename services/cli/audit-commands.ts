import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { accountStream } from '../../packages/domain/account/account-events.ts';
import { publicObject } from '../../projections/views/object-view.ts';
import { exportAccount } from '../audit/export-account.ts';
import { LogCheckpoints } from '../audit/log-checkpoints.ts';
import { replayExport } from '../audit/replay-export.ts';
import { verifyLog } from '../audit/verify-log.ts';
import type { Platform } from '../platform.ts';
import type { CliOutput } from './cli-output.ts';

type WithPlatform = (work: (platform: Platform) => Promise<void>) => Promise<void>;

/** A progress bar on stderr (stdout carries the output), drawn only on a terminal. */
function progressBar(stderr: Writable, total: number, unit: string): SingleBar {
  const bar = new SingleBar(
    { stream: stderr, format: `{bar} {percentage}% | {value}/{total} ${unit}`, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0);
  return bar;
}

/** A Unix time in seconds given as an option. */
export function unixTime(option: string, text: string): number {
  if (!/^\d{1,12}$/.test(text)) throw new Error(`${option} must be a Unix time in seconds`);
  return Number(text);
}

/** `audit …`: tamper evidence, export and offline replay of the log (`docs/audit.md`). */
export function registerAuditCommands(program: Command, withPlatform: WithPlatform, out: CliOutput): void {
  const { console, stdout, stderr } = out;
  const audit = program.command('audit').description('Tamper evidence, export and offline replay of the event log');

  audit
    .command('verify')
    .description("Recompute the log's hash chains and checkpoints; report the first break (exit code 1)")
    .option('--account <accountId>', "only the account's streams (checkpoints cover the whole log)")
    .option('--json', 'print the result as JSON')
    .action((options: { account?: string; json?: boolean }) =>
      withPlatform(async (platform) => {
        const checkpoints = await new LogCheckpoints(platform.stateStore).all();
        const bar = progressBar(stderr, await platform.events.headPosition(), 'positions');
        const result = await verifyLog(platform.events, {
          ...(options.account !== undefined && { accountId: options.account }),
          checkpoints,
          onProgress: (position) => bar.update(position),
        }).finally(() => bar.stop());
        if (options.json) console.log(JSON.stringify(result));
        else if (result.firstBreak) console.log(`BROKEN: ${JSON.stringify(result.firstBreak)}`);
        else
          console.log(`Intact: ${result.checked} events, ${result.checkpoints} of ${checkpoints.length} checkpoints`);
        if (result.firstBreak) out.fail();
      }),
    );

  audit
    .command('seal-existing')
    .description('One-time upgrade: hash the events recorded before the log kept hashes, then record a checkpoint')
    .action(() =>
      withPlatform(async (platform) => {
        let bar: SingleBar | undefined;
        const sealed = await platform.events.sealUnhashedEvents((done, total) => {
          bar ??= progressBar(stderr, total, 'events');
          bar.update(done);
        });
        bar?.stop();
        const checkpoint = await new LogCheckpoints(platform.stateStore).record(platform.events);
        console.log(`Sealed ${sealed} events`);
        if (checkpoint)
          console.log(`Checkpoint ${checkpoint.id}: ${checkpoint.events} events, digest ${checkpoint.digest}`);
      }),
    );

  audit
    .command('checkpoint')
    .description('Record a checkpoint of the whole log at its head; prints its digest (keep it outside the service)')
    .action(() =>
      withPlatform(async (platform) => {
        const checkpoint = await new LogCheckpoints(platform.stateStore).record(platform.events);
        if (!checkpoint) console.log('No event since the last checkpoint');
        else console.log(`Checkpoint ${checkpoint.id}: ${checkpoint.events} events, digest ${checkpoint.digest}`);
      }),
    );

  audit
    .command('export')
    .description("Write an account's events as NDJSON to stdout, one event per line with its hashes and metadata")
    .requiredOption('--account <accountId>', 'the account whose streams to export')
    .option('--from <unixTime>', 'only events that happened at or after this Unix time')
    .option('--to <unixTime>', 'only events that happened at or before this Unix time')
    .action((options: { account: string; from?: string; to?: string }) =>
      withPlatform(async (platform) => {
        const from = options.from === undefined ? undefined : unixTime('--from', options.from);
        const to = options.to === undefined ? undefined : unixTime('--to', options.to);
        // A mistyped id would otherwise export nothing and succeed, which reads as an account without events.
        if ((await platform.events.readStream(accountStream(options.account), { maxCount: 1 })).length === 0)
          throw new Error(`Account '${options.account}' does not exist (accounts list shows every account)`);
        const bar = progressBar(stderr, await platform.events.headPosition(), 'positions');
        let exported = 0;
        try {
          for await (const event of exportAccount(platform.events, {
            accountId: options.account,
            ...(from !== undefined && { from }),
            ...(to !== undefined && { to }),
            onProgress: (position) => bar.update(position),
          })) {
            if (!stdout.write(`${JSON.stringify(event)}\n`))
              await new Promise((resolve) => stdout.once('drain', resolve));
            exported += 1;
          }
        } finally {
          bar.stop();
        }
        console.error(`Exported ${exported} events of ${options.account}`);
      }),
    );

  audit
    .command('replay')
    .description('Offline: check the hashes of an export and fold it into objects (one JSON object per line)')
    .argument('<file>', 'an NDJSON file written by audit export')
    .action(async (file: string) => {
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      const replay = await replayExport(lines);
      for (const object of replay.objects.values()) console.log(JSON.stringify(publicObject(object)));
      if (replay.firstBreak) {
        console.error(`BROKEN after ${replay.events} events: ${JSON.stringify(replay.firstBreak)}`);
        out.fail();
      } else {
        console.error(`Intact: ${replay.events} events of ${replay.streams} streams, ${replay.objects.size} objects`);
      }
    });
}
