import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../packages/config/environment.ts';

describe('config: environment', () => {
  it('has a default for every variable', () => {
    expect(loadConfig({})).to.deep.equal({
      port: 3000,
      host: '0.0.0.0',
      dataDir: './data',
      eventStoreUrl: undefined,
      mongodbUrl: undefined,
      redisUrl: undefined,
      vaultKey: undefined,
      fingerprintKey: undefined,
      logLevel: 'info',
      rateLimit: { pointsPerSecond: 100, burst: 200 },
      maxBodyBytes: 102_400,
      idempotencyTtlHours: 24,
      readYourWritesTimeoutMs: 5000,
      tokenTtlSeconds: 900,
      webhookRetryDelaysMs: [
        60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 86_400_000, 86_400_000,
      ],
      webhookTimeoutMs: 10_000,
      webhookDisableAfterFailedDeliveries: 10,
      serviceRole: 'all',
      httpTimeoutsMs: { headers: 10_000, request: 30_000, keepAlive: 5_000 },
      shutdownTimeoutMs: 10_000,
      schedulerIntervalMs: 1000,
      networkDelaysMs: { dispute: 2000, fraudWarning: 2000, disputeDecision: 2000 },
      strictResponses: false,
      faultInjection: [],
      paymentMethodChargeExpirySeconds: 3600,
      paymentMethodProcessingDelayMs: 5000,
      fileMaxBytes: 10 * 1024 * 1024,
      operatorToken: undefined,
      auditCheckpointIntervalMs: 3_600_000,
      readStoreBuildMinEvents: 100_000,
    });
  });

  it('reads every variable', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/payments',
      EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
      MONGODB_URL: 'mongodb://mongo1:27017,mongo2:27017/payments?replicaSet=rs0',
      REDIS_URL: 'redis://redis:6379',
      VAULT_KEY: key,
      FINGERPRINT_KEY: key.toUpperCase(),
      LOG_LEVEL: 'debug',
      RATE_LIMIT_PER_SECOND: '10',
      RATE_LIMIT_BURST: '20',
      MAX_BODY_BYTES: '2048',
      IDEMPOTENCY_TTL_HOURS: '48',
      READ_YOUR_WRITES_TIMEOUT_MS: '1000',
      TOKEN_TTL_SECONDS: '60',
      WEBHOOK_RETRY_DELAYS: '1000, 2000,3000',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_DISABLE_AFTER_FAILED_DELIVERIES: '0',
      SERVICE_ROLE: 'worker',
      SHUTDOWN_TIMEOUT_MS: '0',
      TRUST_PROXY: '2',
      NETWORK_DISPUTE_DECISION_DELAY_MS: '300',
      NETWORK_DISPUTE_DELAY_MS: '100',
      NETWORK_FRAUD_WARNING_DELAY_MS: '200',
      STRICT_RESPONSES: 'true',
      FAULT_INJECTION:
        'crash:charge.after-append, crash:request.after-projection, crash-live:charge.after-network-call',
      OPERATOR_TOKEN: 'op'.repeat(16),
      AUDIT_CHECKPOINT_INTERVAL_MS: '0',
      READ_STORE_BUILD_MIN_EVENTS: '5000',
    });
    expect(config).to.deep.include({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/payments',
      eventStoreUrl: 'esdb://eventstore:2113?tls=false',
      mongodbUrl: 'mongodb://mongo1:27017,mongo2:27017/payments?replicaSet=rs0',
      redisUrl: 'redis://redis:6379',
      logLevel: 'debug',
      rateLimit: { pointsPerSecond: 10, burst: 20 },
      maxBodyBytes: 2048,
      idempotencyTtlHours: 48,
      readYourWritesTimeoutMs: 1000,
      tokenTtlSeconds: 60,
      webhookRetryDelaysMs: [1000, 2000, 3000],
      webhookTimeoutMs: 2500,
      webhookDisableAfterFailedDeliveries: 0,
      serviceRole: 'worker',
      shutdownTimeoutMs: 0,
      trustProxy: 2,
      networkDelaysMs: { dispute: 100, fraudWarning: 200, disputeDecision: 300 },
      strictResponses: true,
      faultInjection: ['charge.after-append', 'request.after-projection', 'live:charge.after-network-call'],
      operatorToken: 'op'.repeat(16),
      auditCheckpointIntervalMs: 0,
      readStoreBuildMinEvents: 5000,
    });
    expect(config.vaultKey).to.deep.equal(Buffer.alloc(32, 0xab));
    expect(config.fingerprintKey).to.deep.equal(Buffer.alloc(32, 0xab));
  });

  it('treats empty values as unset and ignores unknown variables', () => {
    expect(loadConfig({ PORT: '', VAULT_KEY: '', SOMETHING_ELSE: 'x' })).to.include({
      port: 3000,
      vaultKey: undefined,
    });
  });

  function errorFor(env: Record<string, string>): ConfigError {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  const invalid: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got "70000")'],
    [{ PORT: '-1' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got "-1")'],
    [
      { LOG_LEVEL: 'verbose' },
      'Invalid configuration: LOG_LEVEL must be one of error, warn, info, http, debug (got "verbose")',
    ],
    [
      { SERVICE_ROLE: 'web' },
      'Invalid configuration: SERVICE_ROLE must be one of all, api, projector, worker (got "web")',
    ],
    [
      { RATE_LIMIT_PER_SECOND: '50', RATE_LIMIT_BURST: '10' },
      'Invalid configuration: RATE_LIMIT_BURST must be at least RATE_LIMIT_PER_SECOND (50) (got "10")',
    ],
    [
      { PUBLIC_URL: 'https://payments.example.com/api' },
      'Invalid configuration: PUBLIC_URL must be scheme://host[:port], with no path (got "https://payments.example.com/api")',
    ],
    [
      { WEBHOOK_RETRY_DELAYS: '1000,,2000' },
      'Invalid configuration: WEBHOOK_RETRY_DELAYS must be a comma-separated list of delays in milliseconds (got "1000,,2000")',
    ],
    [
      { FAULT_INJECTION: 'crash:nowhere' },
      'Invalid configuration: FAULT_INJECTION must be crash:<point> or crash-live:<point> entries, with point one of charge.before-network-call, charge.after-network-call, charge.after-append, refund.before-network-call, refund.after-network-call, credit.before-network-call, credit.after-network-call, customer.after-append, payment-method.after-append, subscription.after-append, request.after-projection (got "crash:nowhere")',
    ],
    [
      { MAX_BODY_BYTES: '100kb' },
      'Invalid configuration: MAX_BODY_BYTES must be an integer between 1024 and 104857600 (got "100kb")',
    ],
    [
      { REDIS_URL: 'http://redis:6379' },
      'Invalid configuration: REDIS_URL must be a URL starting with redis:// or rediss://',
    ],
    [
      { MONGODB_URL: 'localhost:27017' },
      'Invalid configuration: MONGODB_URL must be a URL starting with mongodb:// or mongodb+srv://',
    ],
    [
      { EVENTSTORE_URL: 'tcp://x' },
      'Invalid configuration: EVENTSTORE_URL must be a URL starting with esdb:// or esdb+discover:// or kurrentdb:// or kurrentdb+discover://',
    ],
    [
      { VAULT_KEY: 'secret-key-material' },
      'Invalid configuration: VAULT_KEY must be 64 hexadecimal characters (32 bytes)',
    ],
    [{ OPERATOR_TOKEN: 'short' }, 'Invalid configuration: OPERATOR_TOKEN must be at least 32 characters long'],
    [
      { FINGERPRINT_KEY: 'ab'.repeat(31) },
      'Invalid configuration: FINGERPRINT_KEY must be 64 hexadecimal characters (32 bytes)',
    ],
  ];
  for (const [env, message] of invalid) {
    it(`explains ${Object.keys(env).join(' and ')} = ${Object.values(env).join(', ')} in one line`, () => {
      const error = errorFor(env);
      expect(error.message).to.equal(message);
      expect(error.message).not.to.contain('\n');
    });
  }

  it('names the variable on the error', () => {
    expect(errorFor({ PORT: 'x' }).variable).to.equal('PORT');
  });

  it('never echoes keys or URLs, which may carry credentials', () => {
    expect(errorFor({ VAULT_KEY: 'top-secret' }).message).not.to.contain('top-secret');
    expect(errorFor({ REDIS_URL: 'http://user:hunter2@redis' }).message).not.to.contain('hunter2');
    expect(errorFor({ OPERATOR_TOKEN: 'hunter2' }).message).not.to.contain('hunter2');
  });
});
