import { z } from 'zod';
import type { LogLevel } from '../observability/logger.ts';
import { parseFaultInjection, type ArmedFault } from './fault-injection.ts';

/**
 * The whole process configuration, read once at startup from environment variables.
 * Every variable is optional; an empty value counts as unset (compose files often pass `VAR=`).
 * Unknown variables are ignored.
 */

export type ServiceRole = 'all' | 'api' | 'projector' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Set: events go to EventStoreDB / KurrentDB; unset: the embedded SQLite event store. */
  eventStoreUrl?: string;
  /** Set: read models and operational state in MongoDB; unset: embedded SQLite. */
  mongodbUrl?: string;
  /** Set: jobs on BullMQ and rate limits shared through Redis; unset: in-process. */
  redisUrl?: string;
  /** AES-256 key of the card vault. Unset: the embedded profile generates one and keeps it in dataDir. */
  vaultKey?: Buffer;
  /** Key of the keyed hash that fingerprints card numbers. */
  fingerprintKey?: Buffer;
  logLevel: LogLevel;
  /** Requests per second per API key (per client IP before authentication), and the most in one second. */
  rateLimit: { pointsPerSecond: number; burst: number };
  maxBodyBytes: number;
  idempotencyTtlHours: number;
  readYourWritesTimeoutMs: number;
  tokenTtlSeconds: number;
  /** Delay before each webhook delivery retry; the delivery is abandoned after the last one. */
  webhookRetryDelaysMs: number[];
  /** How long a webhook endpoint has to answer an attempt (connection, TLS and status line). */
  webhookTimeoutMs: number;
  /** Deliveries failed for good in a row after which an endpoint is disabled; 0: never. */
  webhookDisableAfterFailedDeliveries: number;
  serviceRole: ServiceRole;
  /** Both set: the API serves HTTPS with this PEM certificate (chain) and key, re-read on SIGHUP. */
  tls?: { certFile: string; keyFile: string };
  /**
   * Express 'trust proxy': which proxies' X-Forwarded-Proto/-For to believe (true, a hop count, or
   * comma-separated addresses/subnets/`loopback`/`linklocal`/`uniquelocal`); unset: none.
   */
  trustProxy?: boolean | number | string;
  /**
   * The address clients reach the service at (scheme, host, port, no path), for links handed out
   * where no request tells it: webhook deliveries. Unset: http(s)://localhost:PORT.
   */
  publicUrl?: string;
  /** Slow clients: the most time for request headers, for a whole request, and idle keep-alive. */
  httpTimeoutsMs: { headers: number; request: number; keepAlive: number };
  shutdownTimeoutMs: number;
  /** How often workers look for due work (renewals, retries, deliveries, network outcomes). */
  schedulerIntervalMs: number;
  /** Delays of what the simulated card network reports after the fact (test cards 4242000000000018 / …0208, dispute decisions). */
  networkDelaysMs: { dispute: number; fraudWarning: number; disputeDecision: number };
  /** Test hook (`fault-injection.ts`): points where a test-mode request kills the process. Empty by default. */
  faultInjection: ArmedFault[];
  /** How long a payer has to complete a payment-method charge at the provider before it fails. */
  paymentMethodChargeExpirySeconds: number;
  /** How long the simulated provider takes to confirm a payment it answered `processing`. */
  paymentMethodProcessingDelayMs: number;
  /** Largest file `POST /files` accepts; bigger uploads are answered 413. */
  fileMaxBytes: number;
  /** Tests and development: an answer with a field its response schema does not know is a 500. */
  strictResponses: boolean;
  /** Bearer token of `/metrics` and the operator console (`docs/operations.md`); both are off without it. */
  operatorToken: string | undefined;
  /** How often the projector records a checkpoint over the whole log (`docs/audit.md`); 0: never. */
  auditCheckpointIntervalMs: number;
  /**
   * Embedded: from how many events in the log a start on an empty read store builds it in a process
   * of its own as `projections rebuild --all` does, instead of projecting the log itself.
   */
  readStoreBuildMinEvents: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Values never echoed in an error: keys, and URLs that may carry credentials. */
const UNECHOED_VARIABLES = new Set([
  'VAULT_KEY',
  'FINGERPRINT_KEY',
  'OPERATOR_TOKEN',
  'EVENTSTORE_URL',
  'MONGODB_URL',
  'REDIS_URL',
]);

/** 30 days: real networks take weeks; the simulator defaults to seconds. */
const MAX_NETWORK_DELAY_MS = 30 * 24 * 3600 * 1000;
/** 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then daily: the last (10th) attempt comes about 3.9 days after the first. */
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [
  60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 86_400_000, 86_400_000,
];

function integerBetween(min: number, max: number) {
  const message = `must be an integer between ${min} and ${max}`;
  return z
    .string()
    .regex(/^\d+$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);
}

function urlWithScheme(...schemes: string[]) {
  const pattern = new RegExp(`^(${schemes.map((scheme) => scheme.replace(/[+.]/g, '\\$&')).join('|')})://\\S+$`);
  // Not parsed with URL: MongoDB and EventStoreDB connection strings may list several hosts.
  return z
    .string()
    .regex(pattern, `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`);
}

const key32Bytes = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
  .transform((hex) => Buffer.from(hex, 'hex'));

const millisecondsList = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'must be a comma-separated list of delays in milliseconds')
  .transform((list) => list.split(',').map((delay) => Number(delay.trim())));

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

const environmentSchema = z
  .object({
    PORT: integerBetween(0, 65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    EVENTSTORE_URL: urlWithScheme('esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover').optional(),
    MONGODB_URL: urlWithScheme('mongodb', 'mongodb+srv').optional(),
    REDIS_URL: urlWithScheme('redis', 'rediss').optional(),
    VAULT_KEY: key32Bytes.optional(),
    FINGERPRINT_KEY: key32Bytes.optional(),
    LOG_LEVEL: oneOf(['error', 'warn', 'info', 'http', 'debug']).default('info'),
    RATE_LIMIT_PER_SECOND: integerBetween(1, 1_000_000).default(100),
    RATE_LIMIT_BURST: integerBetween(1, 1_000_000).default(200),
    MAX_BODY_BYTES: integerBetween(1024, 100 * 1024 * 1024).default(100 * 1024),
    IDEMPOTENCY_TTL_HOURS: integerBetween(1, 24 * 30).default(24),
    READ_YOUR_WRITES_TIMEOUT_MS: integerBetween(0, 600_000).default(5000),
    READ_STORE_BUILD_MIN_EVENTS: integerBetween(1, Number.MAX_SAFE_INTEGER).default(100_000),
    TOKEN_TTL_SECONDS: integerBetween(1, 7 * 24 * 3600).default(900),
    WEBHOOK_RETRY_DELAYS: millisecondsList.default(DEFAULT_WEBHOOK_RETRY_DELAYS_MS),
    WEBHOOK_TIMEOUT_MS: integerBetween(100, 600_000).default(10_000),
    WEBHOOK_DISABLE_AFTER_FAILED_DELIVERIES: integerBetween(0, 1_000_000).default(10),
    SERVICE_ROLE: oneOf(['all', 'api', 'projector', 'worker']).default('all'),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
    PUBLIC_URL: urlWithScheme('http', 'https')
      .refine(
        (url) => new URL(url).pathname === '/' && !url.endsWith('/'),
        'must be scheme://host[:port], with no path',
      )
      .optional(),
    TRUST_PROXY: z
      .string()
      .regex(
        /^(true|false|\d+|[0-9A-Za-z.:/,\s]+)$/,
        'must be true, false, a hop count, or a list of addresses or subnets',
      )
      .transform((value): boolean | number | string =>
        value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
      )
      .optional(),
    HTTP_HEADERS_TIMEOUT_MS: integerBetween(1000, 600_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: integerBetween(1000, 600_000).default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: integerBetween(100, 600_000).default(5_000),
    SHUTDOWN_TIMEOUT_MS: integerBetween(0, 600_000).default(10_000),
    SCHEDULER_INTERVAL_MS: integerBetween(50, 3_600_000).default(1000),
    NETWORK_DISPUTE_DELAY_MS: integerBetween(0, MAX_NETWORK_DELAY_MS).default(2000),
    NETWORK_FRAUD_WARNING_DELAY_MS: integerBetween(0, MAX_NETWORK_DELAY_MS).default(2000),
    NETWORK_DISPUTE_DECISION_DELAY_MS: integerBetween(0, MAX_NETWORK_DELAY_MS).default(2000),
    FAULT_INJECTION: z
      .string()
      .transform((setting, ctx) => {
        try {
          return parseFaultInjection(setting);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      })
      .default([]),
    PAYMENT_METHOD_CHARGE_EXPIRY_SECONDS: integerBetween(1, 7 * 24 * 3600).default(3600),
    PAYMENT_METHOD_PROCESSING_DELAY_MS: integerBetween(0, 24 * 3600 * 1000).default(5000),
    FILE_MAX_BYTES: integerBetween(1024, 100 * 1024 * 1024).default(10 * 1024 * 1024),
    STRICT_RESPONSES: oneOf(['true', 'false']).default('false'),
    OPERATOR_TOKEN: z.string().min(32, { error: 'must be at least 32 characters long' }).optional(),
    AUDIT_CHECKPOINT_INTERVAL_MS: integerBetween(0, 30 * 24 * 3_600_000).default(3_600_000),
  })
  .superRefine((env, ctx) => {
    if ((env.TLS_CERT_FILE === undefined) !== (env.TLS_KEY_FILE === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.TLS_CERT_FILE === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'],
        message: 'must be set together with ' + (env.TLS_CERT_FILE === undefined ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'),
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: `must be at most HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`,
      });
    }
    if (env.RATE_LIMIT_BURST < env.RATE_LIMIT_PER_SECOND) {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_LIMIT_BURST'],
        message: `must be at least RATE_LIMIT_PER_SECOND (${env.RATE_LIMIT_PER_SECOND})`,
      });
    }
  })
  .transform((env): Config => ({
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    eventStoreUrl: env.EVENTSTORE_URL,
    mongodbUrl: env.MONGODB_URL,
    redisUrl: env.REDIS_URL,
    vaultKey: env.VAULT_KEY,
    fingerprintKey: env.FINGERPRINT_KEY,
    logLevel: env.LOG_LEVEL,
    rateLimit: { pointsPerSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
    maxBodyBytes: env.MAX_BODY_BYTES,
    idempotencyTtlHours: env.IDEMPOTENCY_TTL_HOURS,
    readYourWritesTimeoutMs: env.READ_YOUR_WRITES_TIMEOUT_MS,
    readStoreBuildMinEvents: env.READ_STORE_BUILD_MIN_EVENTS,
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS,
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookDisableAfterFailedDeliveries: env.WEBHOOK_DISABLE_AFTER_FAILED_DELIVERIES,
    serviceRole: env.SERVICE_ROLE,
    ...(env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? { tls: { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE } }
      : {}),
    ...(env.TRUST_PROXY !== undefined ? { trustProxy: env.TRUST_PROXY } : {}),
    ...(env.PUBLIC_URL !== undefined ? { publicUrl: env.PUBLIC_URL } : {}),
    httpTimeoutsMs: {
      headers: env.HTTP_HEADERS_TIMEOUT_MS,
      request: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAlive: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_MS,
    networkDelaysMs: {
      dispute: env.NETWORK_DISPUTE_DELAY_MS,
      fraudWarning: env.NETWORK_FRAUD_WARNING_DELAY_MS,
      disputeDecision: env.NETWORK_DISPUTE_DECISION_DELAY_MS,
    },
    faultInjection: env.FAULT_INJECTION,
    paymentMethodChargeExpirySeconds: env.PAYMENT_METHOD_CHARGE_EXPIRY_SECONDS,
    paymentMethodProcessingDelayMs: env.PAYMENT_METHOD_PROCESSING_DELAY_MS,
    fileMaxBytes: env.FILE_MAX_BYTES,
    strictResponses: env.STRICT_RESPONSES === 'true',
    operatorToken: env.OPERATOR_TOKEN,
    auditCheckpointIntervalMs: env.AUDIT_CHECKPOINT_INTERVAL_MS,
  }));

/** Reads and validates the configuration; throws ConfigError naming the first invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const setVariables = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = environmentSchema.safeParse(setVariables);
  if (result.success) return result.data;

  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0]);
  const value = setVariables[variable];
  const echo = value !== undefined && !UNECHOED_VARIABLES.has(variable) ? ` (got ${JSON.stringify(value)})` : '';
  throw new ConfigError(variable, `Invalid configuration: ${variable} ${issue.message}${echo}`);
}
