import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import {
  addAccountProcessor,
  listAccountProcessors,
  removeAccountProcessor,
  reorderAccountProcessors,
  type ListedProcessor,
} from '../../packages/commands/account-processors.ts';
import { newId } from '../../packages/ids/object-id.ts';
import type { Platform } from '../platform.ts';
import { brandsOption, currenciesOption } from './account-settings-options.ts';
import { unixTime } from './audit-commands.ts';
import type { CliOutput } from './cli-output.ts';
import { reconcile, type Difference } from './reconcile.ts';

type WithPlatform = (work: (platform: Platform) => Promise<void>) => Promise<void>;

/**
 * The operators' commands of live processing: an account's upstream processors
 * (`accounts processors add|list|remove|order`) and `reconcile` (docs/operations.md).
 */
export function registerProcessorCommands(
  accounts: Command,
  program: Command,
  withPlatform: WithPlatform,
  out: CliOutput,
): void {
  const { console, stderr, fail } = out;
  const processors = accounts
    .command('processors')
    .description(
      "The upstream processors live mode sends the account's payments to, most preferred first (docs/operations.md)",
    );
  const cliContext = () => ({ actor: 'system:cli', requestId: newId('req'), now: () => new Date() });
  const printProcessors = (accountId: string, listed: ListedProcessor[], json: boolean | undefined) => {
    if (json) console.log(JSON.stringify({ accountId, processors: listed }));
    else
      for (const [index, processor] of listed.entries())
        console.log(
          [
            `${index + 1}.`,
            processor.processorId,
            processor.kind,
            processor.url,
            `key=${processor.secretKey}`,
            `currencies=${processor.currencies?.join(',') ?? 'all'}`,
            `brands=${processor.brands?.join(',') ?? 'all'}`,
            `timeout=${processor.timeoutMs}ms`,
            `idempotency-window=${processor.idempotencyWindowMs}ms`,
            ...(processor.webhookSecret ? [`webhook-secret=${processor.webhookSecret}`] : []),
          ].join('  '),
        );
  };
  processors
    .command('add')
    .description("Add a processor, last in the account's order of preference; prints the processors afterwards")
    .argument('<accountId>', 'account id (acct_…)')
    .requiredOption('--kind <kind>', 'the processor API: shift4 or stripe')
    .requiredOption('--url <url>', 'base URL of its API (https://; http:// only to localhost)')
    .requiredOption('--secret-key <key>', 'the secret key of the account at the processor (kept in the vault)')
    .option('--currencies <codes>', 'currencies it takes, comma-separated ISO codes, or all (default)', 'all')
    .option('--brands <brands>', 'card brands it takes, comma-separated (Visa,MasterCard,…), or all (default)', 'all')
    .option('--timeout-ms <ms>', 'how long a request may take before its outcome is unknown (default 30000)')
    .option(
      '--idempotency-window-ms <ms>',
      'how long the processor answers a repeated idempotency key with its first answer (default 86400000: 24 h)',
    )
    .option(
      '--webhook-secret <secret>',
      "the signing secret of this service's endpoint at the processor (Stripe: whsec_…; kept in the vault)",
    )
    .option('--json', 'print { accountId, processors } as JSON')
    .action(
      (
        accountId: string,
        options: {
          kind: string;
          url: string;
          secretKey: string;
          currencies: string;
          brands: string;
          timeoutMs?: string;
          idempotencyWindowMs?: string;
          webhookSecret?: string;
          json?: boolean;
        },
      ) =>
        withPlatform(async (platform) => {
          if (options.kind !== 'shift4' && options.kind !== 'stripe')
            throw new Error('--kind must be shift4 or stripe');
          if (options.timeoutMs !== undefined && !/^\d+$/.test(options.timeoutMs))
            throw new Error('--timeout-ms must be a number of milliseconds');
          if (options.idempotencyWindowMs !== undefined && !/^\d+$/.test(options.idempotencyWindowMs))
            throw new Error('--idempotency-window-ms must be a number of milliseconds');
          const listed = await addAccountProcessor(
            platform,
            accountId,
            {
              kind: options.kind,
              url: options.url,
              secretKey: options.secretKey,
              currencies: currenciesOption(options.currencies),
              brands: brandsOption(options.brands),
              ...(options.timeoutMs !== undefined ? { timeoutMs: Number(options.timeoutMs) } : {}),
              ...(options.idempotencyWindowMs !== undefined
                ? { idempotencyWindowMs: Number(options.idempotencyWindowMs) }
                : {}),
              ...(options.webhookSecret !== undefined ? { webhookSecret: options.webhookSecret } : {}),
            },
            cliContext(),
          );
          printProcessors(accountId, listed, options.json);
        }),
    );
  processors
    .command('list')
    .description("Print the account's processors, most preferred first, secret keys masked")
    .argument('<accountId>', 'account id (acct_…)')
    .option('--json', 'print { accountId, processors } as JSON')
    .action((accountId: string, options: { json?: boolean }) =>
      withPlatform(async (platform) =>
        printProcessors(accountId, await listAccountProcessors(platform.aggregates, accountId), options.json),
      ),
    );
  processors
    .command('remove')
    .description('Remove a processor: no new payment is sent to it; prints the processors afterwards')
    .argument('<accountId>', 'account id (acct_…)')
    .argument('<processorId>', 'processor id (proc_…)')
    .option('--json', 'print { accountId, processors } as JSON')
    .action((accountId: string, processorId: string, options: { json?: boolean }) =>
      withPlatform(async (platform) =>
        printProcessors(
          accountId,
          await removeAccountProcessor(platform.aggregates, accountId, processorId, cliContext()),
          options.json,
        ),
      ),
    );
  processors
    .command('order')
    .description('Set the order of preference: every processor of the account, most preferred first')
    .argument('<accountId>', 'account id (acct_…)')
    .argument('<processorIds...>', 'processor ids (proc_…)')
    .option('--json', 'print { accountId, processors } as JSON')
    .action((accountId: string, processorIds: string[], options: { json?: boolean }) =>
      withPlatform(async (platform) =>
        printProcessors(
          accountId,
          await reorderAccountProcessors(platform.aggregates, accountId, processorIds, cliContext()),
          options.json,
        ),
      ),
    );

  program
    .command('reconcile')
    .description(
      "Compare an account's live charges, refunds and credits with its processors' records; exits 1 on a difference",
    )
    .requiredOption('--account <accountId>', 'account id (acct_…)')
    .option('--from <unixTime>', 'window start, Unix time (default: 24 hours before --to)')
    .option('--to <unixTime>', 'window end, Unix time (default: now)')
    .option('--json', 'print { accountId, from, to, differences } as JSON')
    .option('--progress', 'show a progress bar on stderr')
    .action((options: { account: string; from?: string; to?: string; json?: boolean; progress?: boolean }) =>
      withPlatform(async (platform) => {
        const to = options.to === undefined ? new Date() : new Date(unixTime('--to', options.to) * 1000);
        const from =
          options.from === undefined
            ? new Date(to.getTime() - 24 * 3600_000)
            : new Date(unixTime('--from', options.from) * 1000);
        if (from > to) throw new Error('--from must not be after --to');
        const bar = options.progress
          ? new SingleBar(
              { stream: stderr, format: '{bar} {percentage}% | {value}/{total} objects', hideCursor: true },
              Presets.shades_classic,
            )
          : null;
        let started = false;
        let found: Difference[];
        try {
          found = await reconcile(platform, options.account, { from, to }, (done, total) => {
            if (!bar) return;
            if (!started) bar.start(Math.max(total, 1), 0);
            started = true;
            bar.update(done);
          });
        } finally {
          if (started) bar?.stop();
        }
        if (options.json)
          console.log(
            JSON.stringify({
              accountId: options.account,
              from: Math.floor(from.getTime() / 1000),
              to: Math.floor(to.getTime() / 1000),
              differences: found,
            }),
          );
        else if (found.length === 0) console.log('No differences');
        else
          for (const difference of found)
            console.log(
              [
                difference.kind.padEnd(16),
                difference.object.padEnd(7),
                difference.id ?? '-',
                `processor=${difference.processorObjectId ?? '-'}`,
                `here=${describe(difference.here)}`,
                `there=${describe(difference.there)}`,
              ].join('  '),
            );
        if (found.length > 0) fail();
      }),
    );
  const describe = (side: Difference['here'] | Difference['there']): string =>
    side ? `${side.amount} ${side.currency} ${side.status} refunded ${side.amountRefunded}` : '-';
}
