import { MeasuredEventStore } from './operator/measured-event-store.ts';
import { ServiceMetrics } from './operator/service-metrics.ts';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { AggregateStore } from '../packages/commands/aggregate-store.ts';
import { CardIntake } from '../packages/commands/card-intake.ts';
import { ConfigError, type Config } from '../packages/config/environment.ts';
import { EVENT_LOG_FILE, STATE_STORE_FILE } from '../packages/config/data-dir-files.ts';
import { preparePrivateDataDir } from '../packages/config/private-data-dir.ts';
import { createEventStore } from '../packages/eventstore/create-event-store.ts';
import type { EventStore } from '../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../packages/eventstore/sqlite-event-store.ts';
import { createFileStore } from '../packages/files/create-file-store.ts';
import type { FileStore } from '../packages/files/file-store.ts';
import { createJobQueue } from '../packages/jobs/create-job-queue.ts';
import { createLogger, type Logger } from '../packages/observability/logger.ts';
import { OutageReporter } from '../packages/observability/outage-reporter.ts';
import type { JobQueue } from '../packages/jobs/job-queue.ts';
import type { CardNetwork } from '../packages/network/card-network.ts';
import { SimulatedCardNetwork } from '../packages/network/simulated-card-network.ts';
import { EventFileNetworkJournal } from '../packages/network/event-file-network-journal.ts';
import { StoredNetworkJournal, type NetworkJournal } from '../packages/network/network-journal.ts';
import { LiveCardNetwork } from '../packages/network/live-card-network.ts';
import { processorAdapter } from '../packages/network/processors/adapters.ts';
import { accountProcessors } from '../packages/commands/account-processors.ts';
import type { Projection } from '../packages/projection-runtime/projection.ts';
import { ReadModels } from '../packages/projection-runtime/read-models.ts';
import { createDocumentStore } from '../packages/readstore/create-document-store.ts';
import { currentReadFile, SqliteReadFiles } from '../packages/readstore/sqlite-read-files.ts';
import { BackgroundWalCheckpoints } from '../packages/sqlite/background-wal-checkpoints.ts';
import type { DocumentStore } from '../packages/readstore/document-store.ts';
import { CardFingerprinter } from '../packages/vault/card-fingerprint.ts';
import { EventFileVaultEntries } from '../packages/vault/event-file-vault-entries.ts';
import { KEY_FILES, loadOrCreateKey } from '../packages/vault/vault-key.ts';
import { Vault } from '../packages/vault/vault.ts';
import type { Commands } from './commands.ts';
import { buildCommands } from './resource-commands.ts';
import { allProjections } from './resources/registries.ts';
import { jobBackgroundWork } from './worker/subscription-jobs.ts';

export type { Commands } from './commands.ts';

/**
 * Everything a process of the service needs, wired from configuration alone
 * (`docs/architecture.md`, "Process roles"): the distributed adapters when their URLs are set,
 * the embedded SQLite files in DATA_DIR otherwise.
 * Read models and operational state (vault, idempotency, leases) live in separate stores so that
 * the read side can be deleted and rebuilt from the log.
 */
export interface Platform {
  config: Config;
  events: EventStore;
  readStore: DocumentStore;
  stateStore: DocumentStore;
  /** Bytes of uploaded files. */
  fileStore: FileStore;
  jobs: JobQueue;
  /** Shared Redis connection (rate limits) when REDIS_URL is set. */
  redis: Redis | null;
  projections: Projection[];
  readModels: ReadModels;
  aggregates: AggregateStore;
  vault: Vault;
  fingerprinter: CardFingerprinter;
  network: CardNetwork;
  commands: Commands;
  /** The Prometheus metrics of this service (`GET /metrics`). */
  metrics: ServiceMetrics;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** Where the platform's own warnings go (WAL checkpoints, Redis outages); stdout at the configured level by default. */
  logger?: Logger;
}

export async function openPlatform(config: Config, options: PlatformOptions = {}): Promise<Platform> {
  if (config.mongodbUrl && !config.vaultKey) {
    // Each process would otherwise generate its own key and could not read the others' secrets.
    throw new ConfigError('VAULT_KEY', 'Invalid configuration: VAULT_KEY is required when MONGODB_URL is set');
  }
  // Only the embedded stores live in DATA_DIR; the key files are there unless keys are configured.
  const embeddedFiles = [
    ...(config.eventStoreUrl ? [] : [EVENT_LOG_FILE]),
    ...(config.mongodbUrl ? [] : [currentReadFile(config.dataDir), STATE_STORE_FILE]),
  ];
  preparePrivateDataDir(config.dataDir, embeddedFiles, Object.values(KEY_FILES));
  const metrics = new ServiceMetrics();
  const eventLog = await createEventStore({
    eventStoreUrl: config.eventStoreUrl,
    sqlitePath: join(config.dataDir, EVENT_LOG_FILE),
    onGroupCommit: (appends) => metrics.groupCommitAppends.observe(appends),
    backgroundCheckpoints: true,
  });
  const events = new MeasuredEventStore(eventLog, metrics);
  // Embedded: the read store is the file a full rebuild switched to last (`SqliteReadFiles`).
  const readStore = config.mongodbUrl
    ? await createDocumentStore({
        mongodbUrl: config.mongodbUrl,
        dbName: 'payments_read',
        sqlitePath: join(config.dataDir, 'read.sqlite'),
      })
    : new SqliteReadFiles(config.dataDir, { backgroundCheckpoints: true, commitsOnThread: true });
  const stateStore = await createDocumentStore({
    mongodbUrl: config.mongodbUrl,
    dbName: 'payments_state',
    sqlitePath: join(config.dataDir, STATE_STORE_FILE),
    synchronous: 'FULL',
    backgroundCheckpoints: true,
  });
  // The embedded files' WAL checkpoints run on a thread of their own, off the requests' event loop.
  const logger = options.logger ?? createLogger(config.logLevel);
  const checkpoints =
    embeddedFiles.length > 0
      ? BackgroundWalCheckpoints.start(
          embeddedFiles.map((file) => join(config.dataDir, file)),
          {
            // Nothing to copy yet at a start: the thread starts once commits come.
            waitForCommits: true,
            onFailure: (file, message) => logger.warn('WAL checkpoint failed; retrying', { file, error: message }),
          },
        )
      : null;
  if (readStore instanceof SqliteReadFiles) {
    let served = readStore.currentPath;
    readStore.on('switched', (path) => {
      checkpoints?.replace(served, path);
      served = path;
    });
    readStore.followSwitches();
  }
  const fileStore = await createFileStore({ mongodbUrl: config.mongodbUrl, dataDir: config.dataDir });
  // One warning when Redis goes away and one notice when it is back, whichever connection notices.
  const redisOutage = new OutageReporter(
    logger,
    'Redis',
    'jobs wait in the state they were in, and rate limits fall back to each process; retrying',
  );
  const jobs = await createJobQueue({ redisUrl: config.redisUrl, prefix: 'payments', logger, redisOutage });
  // Without an offline queue, a rate-limit check fails at once while Redis is away (and falls back
  // to the process's own limiter) instead of holding the request until Redis is back.
  // The Redis client is loaded only when Redis is configured.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        lazyConnect: false,
        maxRetriesPerRequest: 3,
        enableOfflineQueue: false,
      })
    : null;
  redis?.on('error', (error) => redisOutage.failed(error));
  redis?.on('ready', () => redisOutage.recovered());
  const projections = allProjections();
  const readModels = new ReadModels(readStore, projections);
  const aggregates = new AggregateStore(events);
  // Embedded: vault entries commit with the next append to the events file, so a charge with new
  // card details costs one fsync (`docs/architecture.md`, "Crash safety of card storage").
  const vault = new Vault(
    eventLog instanceof SqliteEventStore
      ? new EventFileVaultEntries(eventLog, stateStore.collection('vault'))
      : stateStore.collection('vault'),
    loadOrCreateKey(config.vaultKey, config.dataDir, KEY_FILES.vault),
  );
  const fingerprinter = new CardFingerprinter(
    loadOrCreateKey(config.fingerprintKey, config.dataDir, KEY_FILES.fingerprint),
  );
  // Embedded: the simulator's answers commit with the next append too, for the same reason.
  const networkJournal = <Outcome>(name: string): NetworkJournal<Outcome> => {
    const stored = new StoredNetworkJournal<Outcome>(stateStore.collection(`simulated_network_${name}`));
    return eventLog instanceof SqliteEventStore ? new EventFileNetworkJournal(eventLog, name, stored) : stored;
  };
  // Test mode answers from the simulator; live mode from the account's processors (a
  // gateway_error without one).
  const network = new LiveCardNetwork({
    simulator: new SimulatedCardNetwork({
      disputeDelayMs: config.networkDelaysMs.dispute,
      fraudWarningDelayMs: config.networkDelaysMs.fraudWarning,
      disputeDecisionDelayMs: config.networkDelaysMs.disputeDecision,
      authorizations: networkJournal('authorizations'),
      credits: networkJournal('credits'),
    }),
    processorsOf: (accountId) => accountProcessors(aggregates, accountId),
    secretKey: (ref) => vault.reveal(ref),
    connect: processorAdapter,
  });
  const commands = buildCommands({
    config,
    aggregates,
    readModels,
    stateStore,
    fileStore,
    vault,
    fingerprinter,
    network,
    background: jobBackgroundWork(jobs),
    intake: new CardIntake(network, vault, fingerprinter),
  });
  return {
    config,
    events,
    readStore,
    stateStore,
    fileStore,
    jobs,
    redis,
    projections,
    readModels,
    aggregates,
    vault,
    fingerprinter,
    network,
    commands,
    metrics,
    async close() {
      readModels.stop();
      await jobs.close();
      // A short run (a CLI command) may close before the connection is ready: without an offline
      // queue, QUIT would fail then, so a connection not ready is just dropped.
      if (redis?.status === 'ready') await redis.quit();
      else redis?.disconnect();
      await checkpoints?.stop();
      await events.close();
      await readStore.close();
      await stateStore.close();
      await fileStore.close();
    },
  };
}
