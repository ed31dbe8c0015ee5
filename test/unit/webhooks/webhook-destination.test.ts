import { expect } from 'chai';
import {
  DestinationRefused,
  resolveDestination,
  webhookUrlProblem,
  type HostResolver,
  type ResolvedAddress,
} from '../../../packages/webhooks/webhook-destination.ts';
import type { Mode } from '../../../packages/domain/mode.ts';

/** DNS answers fixed by the test, so no query leaves the machine. */
const answering =
  (answers: Record<string, ResolvedAddress[]>): HostResolver =>
  async (hostname) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

async function refusal(url: string, mode: Mode, resolver: HostResolver): Promise<string> {
  try {
    await resolveDestination(new URL(url), mode, resolver);
  } catch (error) {
    expect(error).to.be.instanceOf(DestinationRefused);
    return (error as Error).message;
  }
  throw new Error(`${url} was not refused in ${mode} mode`);
}

describe('webhook destinations', () => {
  const dns = answering({
    'hooks.example.com': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
    'internal.example.com': [v4('10.1.2.3')],
    'mixed.example.com': [v4('93.184.215.14'), v4('192.168.0.10')],
    'rebind.example.com': [v6('::ffff:127.0.0.1')],
    'metadata.example.com': [v4('169.254.169.254')],
  });

  describe('URL shape', () => {
    it('accepts absolute http and https URLs without credentials', () => {
      expect(webhookUrlProblem('https://hooks.example.com/payments?x=1', null)).to.equal(null);
      expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', 'test')).to.equal(null);
    });

    it('refuses other schemes, relative URLs and credentials', () => {
      expect(webhookUrlProblem('ftp://hooks.example.com/', null)).to.match(/http or https/);
      expect(webhookUrlProblem('/hooks', null)).to.match(/http or https/);
      expect(webhookUrlProblem('file:///etc/passwd', null)).to.match(/http or https/);
      expect(webhookUrlProblem('https://user:pass@hooks.example.com/', null)).to.match(/user name or password/);
    });

    it('requires https in live mode', () => {
      expect(webhookUrlProblem('http://hooks.example.com/', 'live')).to.match(/https in live mode/);
    });
  });

  describe('test mode', () => {
    it('allows loopback and private addresses', async () => {
      expect(await resolveDestination(new URL('http://127.0.0.1:3000/'), 'test', dns)).to.deep.equal(v4('127.0.0.1'));
      expect(await resolveDestination(new URL('http://internal.example.com/'), 'test', dns)).to.deep.equal(
        v4('10.1.2.3'),
      );
      expect(await resolveDestination(new URL('http://[::1]:3000/'), 'test', dns)).to.deep.equal(v6('::1'));
    });
  });

  describe('live mode', () => {
    it('connects to the first address of a name whose every address is public', async () => {
      expect(await resolveDestination(new URL('https://hooks.example.com/x'), 'live', dns)).to.deep.equal(
        v4('93.184.215.14'),
      );
      expect(await resolveDestination(new URL('https://93.184.215.14/x'), 'live', dns)).to.deep.equal(
        v4('93.184.215.14'),
      );
    });

    const refused: [url: string, reason: RegExp][] = [
      ['https://127.0.0.1/', /loopback/],
      ['https://[::1]/', /loopback/],
      ['https://[::ffff:127.0.0.1]/', /loopback/],
      ['https://0x7f.1/', /loopback/], // the URL parser reads it as 127.0.0.1
      ['https://2130706433/', /loopback/],
      ['https://localhost/', /loopback/],
      ['https://api.localhost/', /loopback/],
      ['https://10.0.0.5/', /private/],
      ['https://192.168.1.20:8443/', /private/],
      ['https://[fd00::1]/', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://[fe80::1]/', /link-local/],
      ['https://0.0.0.0/', /unspecified/],
      ['https://224.0.0.1/', /multicast/],
      ['https://internal.example.com/', /private/],
      ['https://mixed.example.com/', /private/],
      ['https://rebind.example.com/', /loopback/],
      ['https://metadata.example.com/', /link-local/],
      ['https://nowhere.example.com/', /could not be resolved/],
      ['http://hooks.example.com/', /https in live mode/],
    ];
    for (const [url, reason] of refused) {
      it(`refuses ${url}`, async () => {
        expect(await refusal(url, 'live', dns)).to.match(reason);
      });
    }
  });
});
