import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { eventually } from '../support/eventually.ts';
import type { ServiceProcess } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function certificate(commonName: string): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

interface HttpsAnswer {
  status: number;
  body: Record<string, unknown>;
  /** SHA-256 fingerprint of the certificate the server presented. */
  certificate: string;
}

/** One HTTPS GET on a fresh connection, trusting only `ca`. */
function httpsGet(url: string, ca: string, key: string): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, agent: false, headers: { authorization: basic(key) } }, (res) => {
      const peer = (res.socket as TLSSocket).getPeerX509Certificate();
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(text) as Record<string, unknown>,
          certificate: peer?.fingerprint256 ?? '',
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const plainGet = (service: ServiceProcess, key: string, headers: Record<string, string> = {}) =>
  fetch(`${service.baseUrl}/customers`, { headers: { authorization: basic(key), ...headers } });

describe('HTTPS, proxies and the live-mode HTTPS requirement', function () {
  this.timeout(90_000);

  describe('serving HTTPS from TLS_CERT_FILE / TLS_KEY_FILE', () => {
    const tlsDir = mkdtempSync(join(tmpdir(), 'payments-tls-'));
    let first: { cert: string; key: string };
    // Registered before the service's own hook, so the files exist when it starts.
    before('generate a certificate', async () => {
      first = await certificate('first.localhost');
      writeFileSync(join(tlsDir, 'cert.pem'), first.cert);
      writeFileSync(join(tlsDir, 'key.pem'), first.key);
    });
    // SIGHUP goes to a process of its own.
    const { service } = useService({
      ownProcess: true,
      env: { TLS_CERT_FILE: join(tlsDir, 'cert.pem'), TLS_KEY_FILE: join(tlsDir, 'key.pem'), TRUST_PROXY: '' },
    });
    after(() => rmSync(tlsDir, { recursive: true, force: true }));

    it('answers live-mode requests over HTTPS, and plain HTTP not at all', async () => {
      const url = service.baseUrl.replace('http:', 'https:');
      const answer = await httpsGet(`${url}/customers`, first.cert, service.keys!.liveSecretKey);
      expect(answer.status).to.equal(200);
      expect(answer.body).to.include({ hasMore: false });
      expect(answer.certificate).to.equal(new X509Certificate(first.cert).fingerprint256);
      const plain = await fetch(`${service.baseUrl}/health`).then(
        () => 'answered',
        () => 'refused',
      );
      expect(plain).to.equal('refused');
    });

    it('reloads a renewed certificate on SIGHUP for new connections', async () => {
      const renewed = await certificate('renewed.localhost');
      writeFileSync(join(tlsDir, 'cert.pem'), renewed.cert);
      writeFileSync(join(tlsDir, 'key.pem'), renewed.key);
      service.signal('SIGHUP');
      await eventually(
        async () => service.output(),
        (output) => output.includes('TLS certificate reloaded'),
      );
      const url = service.baseUrl.replace('http:', 'https:');
      const answer = await httpsGet(`${url}/customers`, renewed.cert, service.keys!.testSecretKey);
      expect(answer.status).to.equal(200);
      expect(answer.certificate).to.equal(new X509Certificate(renewed.cert).fingerprint256);
    });
  });

  describe('plain HTTP without a trusted proxy', () => {
    const { service } = useService({ env: { TRUST_PROXY: '' } });

    it('refuses live mode with a clear 400, even claiming X-Forwarded-Proto; test mode from this host works', async () => {
      for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
        const refused = await plainGet(service, service.keys!.liveSecretKey, headers);
        expect(refused.status).to.equal(400);
        expect(await refused.json()).to.deep.equal({
          error: { type: 'invalid_request', message: 'Live mode requests must be made over HTTPS' },
        });
      }
      expect((await plainGet(service, service.keys!.testSecretKey)).status).to.equal(200);
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
    const { service } = useService({ env: { TRUST_PROXY: 'loopback' } });

    it('honours X-Forwarded-Proto for the HTTPS requirement and X-Forwarded-For for the client address', async () => {
      expect((await plainGet(service, service.keys!.liveSecretKey, { 'x-forwarded-proto': 'https' })).status).to.equal(
        200,
      );
      expect((await plainGet(service, service.keys!.liveSecretKey, { 'x-forwarded-proto': 'http' })).status).to.equal(
        400,
      );
      // A test-mode request relayed for a remote client is not a local one: it needs HTTPS too.
      const remote = await plainGet(service, service.keys!.testSecretKey, { 'x-forwarded-for': '203.0.113.9' });
      expect(remote.status).to.equal(400);
      expect(((await remote.json()) as { error: { message: string } }).error.message).to.contain('HTTPS');
      const local = await plainGet(service, service.keys!.testSecretKey, { 'x-forwarded-for': '10.1.2.3' });
      expect(local.status).to.equal(200);
    });
  });
});
