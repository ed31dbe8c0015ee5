import { expect } from 'chai';
import { findSecrets } from '../support/card-data-scan.ts';
import { createOtherAccount } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

interface Listed {
  accountId: string;
  processors: {
    processorId: string;
    kind: string;
    url: string;
    secretKey: string;
    currencies: string[] | null;
    brands: string[] | null;
    timeoutMs: number;
  }[];
}

describe('processors of an account (operators CLI)', function () {
  this.timeout(120_000);
  const { api, service } = useService();
  let cliOutput = '';

  const cli = async (...args: string[]) => {
    const result = await runCli(['accounts', 'processors', ...args], service.dataDir);
    cliOutput += result.stdout + result.stderr;
    return result;
  };
  const processors = async (...args: string[]): Promise<Listed> => {
    const result = await cli(...args, '--json');
    expect(result.code, result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as Listed;
  };

  const shift4Key = 'sk_test_Shift4ProcessorKeyAbc9871';
  const stripeKey = 'sk_test_StripeProcessorKeyXyz4562';
  /** No secret key in clear in the data directory, the service's output or any CLI output. */
  const expectNoKeyInClear = () =>
    expect(findSecrets(service.dataDir, service.output() + cliOutput, [shift4Key, stripeKey])).to.deep.equal([]);

  it('adds, lists with masked keys, reorders and removes processors; each change is an event with who and when', async () => {
    const { keys } = await createOtherAccount(api, service.dataDir, 'Processors');
    const first = await processors(
      'add',
      keys.id,
      '--kind',
      'shift4',
      '--url',
      'https://api.shift4.example/',
      '--secret-key',
      shift4Key,
      '--currencies',
      'eur,usd',
      '--timeout-ms',
      '5000',
      '--idempotency-window-ms',
      '3600000',
    );
    expect(first.processors).to.have.length(1);
    expect(first.processors[0]).to.deep.include({
      kind: 'shift4',
      url: 'https://api.shift4.example',
      secretKey: '…9871',
      currencies: ['EUR', 'USD'],
      brands: null,
      timeoutMs: 5000,
      idempotencyWindowMs: 3_600_000,
    });
    const both = await processors(
      'add',
      keys.id,
      '--kind',
      'stripe',
      '--url',
      'http://127.0.0.1:1',
      '--secret-key',
      stripeKey,
      '--brands',
      'visa',
    );
    const [shift4, stripe] = both.processors.map((processor) => processor.processorId);
    expect(both.processors.map((processor) => processor.kind)).to.deep.equal(['shift4', 'stripe']);
    expect(both.processors[1]).to.deep.include({
      secretKey: '…4562',
      brands: ['Visa'],
      timeoutMs: 30_000,
      idempotencyWindowMs: 86_400_000,
    });

    const text = await cli('list', keys.id);
    expect(text.stdout).to.match(/^1\.\s+proc_\w+\s+shift4\s+https:\/\/api\.shift4\.example\s+key=…9871/);
    expect(text.stdout.split('\n')[1]).to.match(/^2\.\s+proc_\w+\s+stripe/);

    expect((await processors('order', keys.id, stripe!, shift4!)).processors.map((p) => p.kind)).to.deep.equal([
      'stripe',
      'shift4',
    ]);
    expect((await processors('list', keys.id)).processors.map((p) => p.processorId)).to.deep.equal([stripe, shift4]);
    expect((await processors('remove', keys.id, stripe!)).processors.map((p) => p.processorId)).to.deep.equal([shift4]);

    const shown = await runCli(['streams', 'show', keys.id, '--json'], service.dataDir);
    cliOutput += shown.stdout;
    const events = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; actor: string; occurredAt: string; data: unknown });
    expect(events.map((event) => event.type)).to.deep.equal([
      'AccountCreated',
      'AccountProcessorAdded',
      'AccountProcessorAdded',
      'AccountProcessorsReordered',
      'AccountProcessorRemoved',
    ]);
    for (const event of events.slice(1)) {
      expect(event.actor).to.equal('system:cli');
      expect(Date.parse(event.occurredAt)).to.be.closeTo(Date.now(), 120_000);
    }
    expect(events[1]!.data).to.deep.include({ accountId: keys.id });
    expect((events[1]!.data as { processor: { secretKeyRef: string } }).processor.secretKeyRef).to.match(/^vault_/);

    const exported = await runCli(['audit', 'export', '--account', keys.id], service.dataDir);
    cliOutput += exported.stdout;
    expect(exported.code, exported.stderr).to.equal(0);
    expect(exported.stdout).to.contain('"AccountProcessorAdded"');
    expect(exported.stdout).to.contain('"AccountProcessorRemoved"');
    expectNoKeyInClear();
  });

  it('refuses a bad kind, URL, order or processor with a clear message and records nothing', async () => {
    const { keys } = await createOtherAccount(api, service.dataDir, 'Refusals');
    const add = (...extra: string[]) =>
      cli(
        'add',
        keys.id,
        '--kind',
        'shift4',
        '--url',
        'https://api.shift4.example',
        '--secret-key',
        shift4Key,
        ...extra,
      );
    const refusals: [Promise<{ code: number | null; stderr: string }>, RegExp][] = [
      [
        cli('add', keys.id, '--kind', 'paypal', '--url', 'https://x.example', '--secret-key', shift4Key),
        /--kind must be shift4 or stripe/,
      ],
      [
        cli('add', keys.id, '--kind', 'shift4', '--url', 'http://api.shift4.example', '--secret-key', shift4Key),
        /url must be https:\/\//,
      ],
      [
        cli('add', keys.id, '--kind', 'shift4', '--url', 'not a url', '--secret-key', shift4Key),
        /url must be an absolute URL/,
      ],
      [add('--currencies', 'EUR,XXQ'), /XXQ is not an ISO 4217 currency code/],
      [add('--timeout-ms', '10'), /timeout must be 100–120000 ms/],
      [add('--idempotency-window-ms', '10'), /idempotency window must be 1000 ms to 31 days/],
      [add('--idempotency-window-ms', '1h'), /--idempotency-window-ms must be a number of milliseconds/],
      [cli('remove', keys.id, 'proc_unknown'), /has no processor 'proc_unknown'/],
      [
        cli('add', 'acct_missing', '--kind', 'shift4', '--url', 'https://x.example', '--secret-key', shift4Key),
        /acct_missing/,
      ],
    ];
    for (const [pending, message] of refusals) {
      const result = await pending;
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(message);
    }
    expect((await processors('list', keys.id)).processors).to.deep.equal([]);
    const shown = await runCli(['streams', 'show', keys.id, '--json'], service.dataDir);
    expect(shown.stdout.trim().split('\n')).to.have.length(1);
    expectNoKeyInClear();
  });
});
