import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AggregateStore } from '../packages/commands/aggregate-store.ts';
import { BlacklistCommands } from '../packages/commands/blacklist-commands.ts';
import { CardIntake } from '../packages/commands/card-intake.ts';
import { CardSources } from '../packages/commands/card-sources.ts';
import { ChargeCommands } from '../packages/commands/charge-commands.ts';
import { CreditCommands } from '../packages/commands/credit-commands.ts';
import { CrossSaleOfferCommands } from '../packages/commands/cross-sale-offer-commands.ts';
import { FileCommands } from '../packages/commands/file-commands.ts';
import { OfferImages } from '../packages/commands/offer-image.ts';
import { PaymentMethodChargeCommands } from '../packages/commands/payment-method-charge-commands.ts';
import { PaymentMethodCommands } from '../packages/commands/payment-method-commands.ts';
import { CustomerCommands } from '../packages/commands/customer-commands.ts';
import { DisputeCommands } from '../packages/commands/dispute-commands.ts';
import { NetworkOutcomeCommands } from '../packages/commands/network-outcome-commands.ts';
import { PlanCommands } from '../packages/commands/plan-commands.ts';
import { SubscriptionCommands } from '../packages/commands/subscription-commands.ts';
import { TestClockCommands } from '../packages/commands/test-clock-commands.ts';
import { CustomerClock } from '../packages/commands/customer-clock.ts';
import { TokenCommands } from '../packages/commands/token-commands.ts';
import { WebhookEndpointCommands } from '../packages/commands/webhook-endpoint-commands.ts';
import { ConfigError, type Config } from '../packages/config/environment.ts';
import { createEventStore } from '../packages/eventstore/create-event-store.ts';
import { createFileStore } from '../packages/files/create-file-store.ts';
import type { FileStore } from '../packages/files/file-store.ts';
import type { EventStore } from '../packages/eventstore/event-store.ts';
import { createJobQueue } from '../packages/jobs/create-job-queue.ts';
import type { JobQueue } from '../packages/jobs/job-queue.ts';
import type { CardNetwork } from '../packages/network/card-network.ts';
import { SimulatedCardNetwork } from '../packages/network/simulated-card-network.ts';
import type { Projection } from '../packages/projection/projection.ts';
import { ReadModels } from '../packages/projection/read-models.ts';
import { createDocumentStore } from '../packages/readstore/create-document-store.ts';
import type { DocumentStore } from '../packages/readstore/document-store.ts';
import { CardFingerprinter } from '../packages/vault/card-fingerprint.ts';
import { loadOrCreateKey } from '../packages/vault/vault-key.ts';
import { Vault } from '../packages/vault/vault.ts';
import { allProjections } from '../projections/index.ts';
import { liveBlacklistRules } from './api/blacklist-rules-query.ts';
import { jobBackgroundWork } from './worker/subscription-jobs.ts';
import { subscriptionsOnClock } from './worker/test-clock-subscriptions-query.ts';

/**
 * Everything a process of the service needs, wired from configuration alone (DESIGN §2): the
 * distributed adapters when their URLs are set, the embedded SQLite files in DATA_DIR otherwise.
 * Read models and operational state (vault, idempotency, leases) live in separate stores so that
 * the read side can be deleted and rebuilt from the log.
 */
/** Every command service, by resource. */
export interface Commands {
  customers: CustomerCommands;
  blacklist: BlacklistCommands;
  tokens: TokenCommands;
  charges: ChargeCommands;
  credits: CreditCommands;
  disputes: DisputeCommands;
  networkOutcomes: NetworkOutcomeCommands;
  plans: PlanCommands;
  crossSaleOffers: CrossSaleOfferCommands;
  /** Cross-sale offer images (operational state, not events). */
  offerImages: OfferImages;
  subscriptions: SubscriptionCommands;
  testClocks: TestClockCommands;
  /** The business clock of a customer: real time, or its test clock's. */
  customerClock: CustomerClock;
  webhookEndpoints: WebhookEndpointCommands;
  paymentMethods: PaymentMethodCommands;
  /** Charges paid with a payment method: pending until the payer completes them at the provider. */
  paymentMethodCharges: PaymentMethodChargeCommands;
  files: FileCommands;
}

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
  close(): Promise<void>;
}

export async function openPlatform(config: Config): Promise<Platform> {
  if (config.mongodbUrl && !config.vaultKey) {
    // Each process would otherwise generate its own key and could not read the others' secrets.
    throw new ConfigError('VAULT_KEY', 'Invalid configuration: VAULT_KEY is required when MONGODB_URL is set');
  }
  mkdirSync(config.dataDir, { recursive: true });
  const events = createEventStore({
    eventStoreUrl: config.eventStoreUrl,
    sqlitePath: join(config.dataDir, 'events.sqlite'),
  });
  const readStore = await createDocumentStore({
    mongodbUrl: config.mongodbUrl,
    dbName: 'payments_read',
    sqlitePath: join(config.dataDir, 'read.sqlite'),
  });
  const stateStore = await createDocumentStore({
    mongodbUrl: config.mongodbUrl,
    dbName: 'payments_state',
    sqlitePath: join(config.dataDir, 'state.sqlite'),
    synchronous: 'FULL',
  });
  const fileStore = await createFileStore({ mongodbUrl: config.mongodbUrl, dataDir: config.dataDir });
  const jobs = createJobQueue({ redisUrl: config.redisUrl, prefix: 'payments' });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 }) : null;
  const projections = allProjections();
  const readModels = new ReadModels(readStore, projections);
  const aggregates = new AggregateStore(events);
  const vault = new Vault(
    stateStore.collection('vault'),
    loadOrCreateKey(config.vaultKey, config.dataDir, 'vault.key'),
  );
  const fingerprinter = new CardFingerprinter(
    loadOrCreateKey(config.fingerprintKey, config.dataDir, 'fingerprint.key'),
  );
  // Test and live mode both answer from the simulator until a real acquirer is plugged in here.
  const network = new SimulatedCardNetwork({
    disputeDelayMs: config.networkDelaysMs.dispute,
    fraudWarningDelayMs: config.networkDelaysMs.fraudWarning,
    disputeDecisionDelayMs: config.networkDelaysMs.disputeDecision,
  });
  const intake = new CardIntake(network, vault, fingerprinter);
  const tokens = new TokenCommands(aggregates, intake, config.tokenTtlSeconds, network);
  const cardSources = new CardSources(aggregates, intake, tokens);
  const charges = new ChargeCommands({
    aggregates,
    cardSources,
    intake,
    tokens,
    network,
    blacklistRules: (tenant) => liveBlacklistRules(readModels, tenant),
  });
  const plans = new PlanCommands(aggregates);
  const paymentMethods = new PaymentMethodCommands(aggregates, cardSources);
  const customerClock = new CustomerClock(aggregates);
  const offerImages = new OfferImages(stateStore.collection('images'));
  const background = jobBackgroundWork(jobs);
  const subscriptions = new SubscriptionCommands({ aggregates, charges, plans, clock: customerClock, background });
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
    commands: {
      customers: new CustomerCommands({ aggregates, cardSources, tokens, intake, network, vault }),
      blacklist: new BlacklistCommands(aggregates, fingerprinter),
      tokens,
      charges,
      credits: new CreditCommands({ aggregates, cardSources, intake, network }),
      disputes: new DisputeCommands(aggregates, network),
      networkOutcomes: new NetworkOutcomeCommands(aggregates),
      plans,
      crossSaleOffers: new CrossSaleOfferCommands(aggregates, offerImages),
      offerImages,
      subscriptions,
      testClocks: new TestClockCommands({
        aggregates,
        subscriptions,
        background,
        subscriptionsOnClock: (tenant, testClockId) => subscriptionsOnClock(readModels, tenant, testClockId),
        waitForProjections: async (position) =>
          void (await readModels.waitFor(position, config.readYourWritesTimeoutMs)),
      }),
      customerClock,
      webhookEndpoints: new WebhookEndpointCommands(aggregates, vault),
      paymentMethods,
      paymentMethodCharges: new PaymentMethodChargeCommands(aggregates, paymentMethods, {
        expirySeconds: config.paymentMethodChargeExpirySeconds,
        processingDelayMs: config.paymentMethodProcessingDelayMs,
      }),
      files: new FileCommands(aggregates, fileStore, config.fileMaxBytes),
    },
    async close() {
      readModels.stop();
      await jobs.close();
      await redis?.quit();
      await events.close();
      await readStore.close();
      await stateStore.close();
      await fileStore.close();
    },
  };
}
