import { Command, CommanderError } from 'commander';
import { Console } from 'node:console';
import { writeFileSync } from 'node:fs';
import { createAccount } from '../../packages/commands/account-commands.ts';
import { changeAccountSettings } from '../../packages/commands/account-settings.ts';
import { accountPartners, changeAccountPartners } from '../../packages/commands/account-partners.ts';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { checkoutRequestSchema } from '../../packages/checkout/checkout-request-schema.ts';
import { validateParameters } from '../../packages/http/validation.ts';
import { ConfigError, loadConfig } from '../../packages/config/environment.ts';
import { newId } from '../../packages/ids/object-id.ts';
import { createLogger } from '../../packages/observability/logger.ts';
import { readProjectionState } from '../../packages/projection-runtime/projection-state.ts';
import { checkpointKey } from '../../packages/projection-runtime/projection.ts';
import { ObjectStreams } from '../api/object-streams.ts';
import { objectResources } from '../resources/registries.ts';
import { buildOpenApi } from '../api/openapi-document.ts';
import { openPlatform, type Platform } from '../platform.ts';
import { describeSettings, settingsFromOptions, type SettingsOptions } from './account-settings-options.ts';
import type { CliIo, CliOutput } from './cli-output.ts';
import { registerProcessorCommands } from './processor-commands.ts';
import { rebuildProjections } from './rebuild-projections.ts';
import { registerAuditCommands, unixTime } from './audit-commands.ts';
import { registerBackupCommand } from './backup-command.ts';
import { showObjectAsOf } from './show-object-as-of.ts';
import { showStream } from './show-stream.ts';
import { alignedColumns } from './aligned-columns.ts';
import { listAccounts, printableName } from './list-accounts.ts';
import { readStoreBuildNotice } from './read-store-build-notice.ts';

/**
 * Operators' and auditors' command line (`npm run cli -- <command>`): runs one command line
 * (`argv` without node and the script) and resolves with its exit code. The process is left alone
 * (`main.ts` is the process around it), so that tests run commands inside the test process.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const out: CliOutput = {
    ...io,
    console: new Console({ stdout: io.stdout, stderr: io.stderr }),
    fail: () => (exitCode = 1),
  };
  const program = cliProgram(out);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // Commander has written its own message (usage errors, --help).
    if (error instanceof CommanderError) return error.exitCode;
    out.console.error(error instanceof ConfigError ? error.message : `Error: ${(error as Error).message}`);
    return 1;
  }
  return exitCode;
}

function cliProgram(out: CliOutput): Command {
  const program = new Command()
    .name('payments')
    .description('Operate the card payments service')
    // Mistakes on the command line end this run with an exit code, not the process.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void out.stdout.write(text),
      writeErr: (text) => void out.stderr.write(text),
    });
  const { console } = out;

  async function withPlatform(work: (platform: Platform) => Promise<void>): Promise<void> {
    const config = loadConfig(out.env);
    // The platform's own warnings (WAL checkpoints, Redis) go to this run's stdout.
    const platform = await openPlatform(config, { logger: createLogger(config.logLevel, out.stdout) });
    try {
      await work(platform);
    } finally {
      await platform.close();
    }
  }

  const accounts = program.command('accounts').description('Merchant accounts and their API keys');
  accounts
    .command('create')
    .description('Open an account; prints its id and its four API keys (shown only once)')
    .requiredOption('--name <name>', 'account name')
    .option('--json', 'print the keys as JSON')
    .action((options: { name: string; json?: boolean }) =>
      withPlatform(async (platform) => {
        const { position: _position, ...keys } = await createAccount(platform, options.name, {
          actor: 'system:cli',
          requestId: newId('req'),
          now: () => new Date(),
        });
        if (options.json) console.log(JSON.stringify(keys));
        else for (const [name, value] of Object.entries(keys)) console.log(`${name.padEnd(14)} ${value}`);
      }),
    );

  accounts
    .command('list')
    .description(
      'Every account, newest first: its id, when it was opened, its API keys (id, kind, mode, last four) and its name',
    )
    .option('--json', 'one JSON object per account and line')
    .action((options: { json?: boolean }) =>
      withPlatform(async (platform) => {
        const { accounts: listed, behind } = await listAccounts(platform);
        if (options.json)
          for (const account of listed)
            console.log(
              JSON.stringify({ id: account.id, created: account.created, name: account.name, keys: account.keys }),
            );
        else {
          const rows = listed.map((account) => ({
            account: account.id,
            opened: new Date(account.created * 1000).toISOString(),
            keys: account.keys.map((key) => `${key.keyId} (${key.mode} ${key.kind} …${key.last4})`).join(', '),
            name: printableName(account.name),
          }));
          for (const line of alignedColumns(rows, ['account', 'opened', 'name', 'keys'])) console.log(line);
        }
        if (behind > 0)
          console.error(
            `The accounts read model is ${behind} ${behind === 1 ? 'event' : 'events'} behind the log: accounts opened since are listed once a projector has applied them (projections status).`,
          );
      }),
    );

  accounts
    .command('settings')
    .description("Change an account's settings; prints the settings in force afterwards")
    .argument('<accountId>', 'account id (acct_…)')
    .option(
      '--subscription-failure-status <status>',
      'what a subscription becomes when every renewal retry failed: canceled (default) or unpaid',
    )
    .option('--currencies <codes>', 'currencies charges may use, comma-separated ISO codes, or all (default)')
    .option('--brands <brands>', 'card brands charges may use, comma-separated (Visa,MasterCard,…), or all (default)')
    .option('--credits <allowed|refused>', 'whether the business model allows credits (default refused)')
    .option(
      '--checkout-origins <origins>',
      "the merchant's sites that may frame its hosted checkout, comma-separated origins (https://shop.example,…), or none (default)",
    )
    .option('--json', 'print the settings as JSON')
    .action((accountId: string, options: SettingsOptions & { json?: boolean }) =>
      withPlatform(async (platform) => {
        const settings = await changeAccountSettings(platform.aggregates, accountId, settingsFromOptions(options), {
          actor: 'system:cli',
          requestId: newId('req'),
          now: () => new Date(),
        });
        if (options.json) console.log(JSON.stringify(settings));
        else for (const line of describeSettings(settings)) console.log(line);
      }),
    );

  const partners = accounts
    .command('partners')
    .description(
      "An account's partner list: the accounts whose cross-sale offers visible to it the account may use (not the other way round)",
    );
  const printPartners = (accountId: string, partnerIds: string[], json: boolean | undefined) => {
    if (json) console.log(JSON.stringify({ accountId, partnerIds }));
    else for (const partnerId of partnerIds) console.log(partnerId);
  };
  for (const change of ['add', 'remove'] as const) {
    partners
      .command(change)
      .description(
        change === 'add'
          ? "Put an existing account on the account's partner list; prints the list afterwards"
          : "Take an account off the account's partner list; prints the list afterwards",
      )
      .argument('<accountId>', 'account whose list changes (acct_…)')
      .argument('<partnerId>', 'partner account (acct_…)')
      .option('--json', 'print { accountId, partnerIds } as JSON')
      .action((accountId: string, partnerId: string, options: { json?: boolean }) =>
        withPlatform(async (platform) => {
          const partnerIds = await changeAccountPartners(platform.aggregates, change, accountId, partnerId, {
            actor: 'system:cli',
            requestId: newId('req'),
            now: () => new Date(),
          });
          printPartners(accountId, partnerIds, options.json);
        }),
      );
  }
  partners
    .command('list')
    .description("Print the account's partner list, one account id a line, in the order added")
    .argument('<accountId>', 'account id (acct_…)')
    .option('--json', 'print { accountId, partnerIds } as JSON')
    .action((accountId: string, options: { json?: boolean }) =>
      withPlatform(async (platform) =>
        printPartners(accountId, await accountPartners(platform.aggregates, accountId), options.json),
      ),
    );

  registerProcessorCommands(accounts, program, withPlatform, out);

  const projections = program.command('projections').description('Read models built from the event log');
  projections
    .command('rebuild')
    .description('Rebuild read models from the event log into fresh storage, then switch queries to it')
    .argument('[name]', 'projection to rebuild')
    .option('--all', 'rebuild every projection')
    .option(
      '--normal-priority',
      "with --all on the embedded read store: keep this process's priority instead of yielding the CPU (nice 19) to the serving processes",
    )
    .action((name: string | undefined, options: { all?: boolean; normalPriority?: boolean }) =>
      withPlatform(async (platform) => {
        const known = platform.projections.map((projection) => projection.name);
        const names = options.all ? known : name ? [name] : [];
        if (names.length === 0) throw new Error(`Name a projection or pass --all (projections: ${known.join(', ')})`);
        const unknown = names.filter((candidate) => !known.includes(candidate));
        if (unknown.length > 0)
          throw new Error(`Unknown projection: ${unknown.join(', ')} (projections: ${known.join(', ')})`);
        await rebuildProjections(platform, names, (line) => console.log(line), out.stderr, {
          normalPriority: options.normalPriority === true,
        });
        console.log(`Rebuilt: ${names.join(', ')}`);
      }),
    );
  projections
    .command('status')
    .description('Active build, checkpoint and lag of every projection')
    .option('--json', 'one JSON object per projection and line')
    .action((options: { json?: boolean }) =>
      withPlatform(async (platform) => {
        const head = await platform.events.headPosition();
        const rows = [];
        for (const projection of platform.projections) {
          const state = await readProjectionState(platform.readStore, projection.name);
          const position =
            (await platform.readStore.getCheckpoint(checkpointKey(projection.name, state.activeGeneration))) ?? 0;
          rows.push({
            projection: projection.name,
            generation: state.activeGeneration,
            checkpoint: position,
            head,
            lag: head - position,
          });
        }
        if (options.json) for (const row of rows) console.log(JSON.stringify(row));
        else
          for (const line of alignedColumns(rows, ['projection', 'generation', 'checkpoint', 'head', 'lag']))
            console.log(line);
        const building = await readStoreBuildNotice(platform.stateStore);
        if (building) console.error(building);
      }),
    );

  program
    .command('streams')
    .description('Event streams, for auditors')
    .command('show')
    .description(
      "Print an object's domain events in order (time, type, actor key id, request id, idempotency key, hash, data), or the object as of a time",
    )
    .argument('<objectId>', 'object id, e.g. cust_…')
    .option('--json', 'one JSON object per line')
    .option('--as-of <unixTime>', 'print the object as it stood at this Unix time (seconds), folded from its events')
    .action((objectId: string, options: { json?: boolean; asOf?: string }) =>
      withPlatform(async (platform) => {
        const print = (line: string) => console.log(line);
        if (options.asOf !== undefined) {
          const streams = new ObjectStreams(platform.events, platform.readModels, objectResources);
          if (!(await showObjectAsOf(streams, objectId, unixTime('--as-of', options.asOf), print)))
            throw new Error(`${objectId} did not exist at ${options.asOf}`);
          return;
        }
        const found = await showStream(platform.events, objectId, Boolean(options.json), print);
        if (!found) throw new Error(`No events for ${objectId}`);
      }),
    );

  const checkout = program.command('checkout').description('Hosted checkout (docs/checkout.md)');
  checkout
    .command('sign')
    .description('Sign a checkout request with the secret key; prints the signed request for Shift4Checkout.open')
    .requiredOption('--key <secretKey>', 'the secret key (sk_test_… or sk_live_…) of the account and mode')
    .requiredOption(
      '--request <json>',
      'the checkout request as JSON, e.g. \'{"charge":{"amount":1000,"currency":"EUR"}}\'',
    )
    .option('--json', 'print {"checkoutRequest": "…"}')
    .action((options: { key: string; request: string; json?: boolean }) => {
      if (!/^sk_(test|live)_\w+$/.test(options.key))
        throw new Error('--key must be a secret key (sk_test_… or sk_live_…)');
      let request: unknown;
      try {
        request = JSON.parse(options.request);
      } catch {
        throw new Error('--request must be JSON');
      }
      // Checked here as the service would, so that a mistake shows now rather than in the payer's browser.
      validateParameters(checkoutRequestSchema, request);
      const signed = signCheckoutRequest(options.request, options.key);
      console.log(options.json ? JSON.stringify({ checkoutRequest: signed }) : signed);
    });

  program
    .command('openapi')
    .description('Write the OpenAPI 3.1 document')
    .option('--out <file>', 'file to write (default: stdout)')
    .action((options: { out?: string }) => {
      const text = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
      if (options.out) writeFileSync(options.out, text);
      else out.stdout.write(text);
    });

  registerAuditCommands(program, withPlatform, out);
  registerBackupCommand(program, out);

  return program;
}
