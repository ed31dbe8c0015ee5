import { expect } from 'chai';
import { runCli } from './service-process.ts';

/** A processor as `accounts processors add` takes it (docs/operations.md, "Processors"). */
export interface ProcessorToAdd {
  kind: 'shift4' | 'stripe';
  url: string;
  secretKey: string;
  timeoutMs?: number;
  idempotencyWindowMs?: number;
  /** Comma-separated, as the CLI takes them. */
  currencies?: string;
  brands?: string;
  webhookSecret?: string;
  /** Ask for the JSON answer (`processors` is then parsed from it). */
  json?: boolean;
}

/** A processor of an account as `accounts processors add --json` prints it, keys masked. */
export interface AddedProcessor {
  processorId: string;
  url: string;
  secretKey: string;
  webhookSecret?: string;
}

/**
 * Adds a processor to an account through the CLI, as an operator does, and checks that it worked.
 * Its output is returned for the tests that scan what the CLI printed for secrets.
 */
export async function addProcessor(
  dataDir: string,
  accountId: string,
  processor: ProcessorToAdd,
): Promise<{ output: string; processors: AddedProcessor[] }> {
  const options: [string, string | number | undefined][] = [
    ['--timeout-ms', processor.timeoutMs],
    ['--idempotency-window-ms', processor.idempotencyWindowMs],
    ['--currencies', processor.currencies],
    ['--brands', processor.brands],
    ['--webhook-secret', processor.webhookSecret],
  ];
  const added = await runCli(
    [
      'accounts',
      'processors',
      'add',
      accountId,
      ...['--kind', processor.kind, '--url', processor.url, '--secret-key', processor.secretKey],
      ...options.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)])),
      ...(processor.json ? ['--json'] : []),
    ],
    dataDir,
  );
  expect(added.code, added.stderr).to.equal(0);
  const processors = processor.json ? (JSON.parse(added.stdout) as { processors: AddedProcessor[] }).processors : [];
  return { output: added.stdout + added.stderr, processors };
}
