import { resourceNames, type ResourceName } from '../packages/domain/resources.ts';
import { accountSettings } from '../packages/commands/account-settings.ts';
import type { AggregateStore } from '../packages/commands/aggregate-store.ts';
import type { BackgroundWork } from '../packages/commands/background-work.ts';
import { BlacklistCommands } from '../packages/commands/blacklist-commands.ts';
import type { CardIntake } from '../packages/commands/card-intake.ts';
import { CardSources } from '../packages/commands/card-sources.ts';
import { ChargeCommands } from '../packages/commands/charge-commands.ts';
import { CreditCommands } from '../packages/commands/credit-commands.ts';
import { CrossSaleOfferCommands } from '../packages/commands/cross-sale-offer-commands.ts';
import { CustomerClock } from '../packages/commands/customer-clock.ts';
import { CustomerCommands } from '../packages/commands/customer-commands.ts';
import { DisputeCommands } from '../packages/commands/dispute-commands.ts';
import { NetworkOutcomeCommands } from '../packages/commands/network-outcome-commands.ts';
import { FileCommands } from '../packages/commands/file-commands.ts';
import { OfferImages } from '../packages/commands/offer-image.ts';
import { PaymentMethodChargeCommands } from '../packages/commands/payment-method-charge-commands.ts';
import { PaymentMethodCommands } from '../packages/commands/payment-method-commands.ts';
import { PlanCommands } from '../packages/commands/plan-commands.ts';
import { SubscriptionCommands } from '../packages/commands/subscription-commands.ts';
import { TestClockCommands } from '../packages/commands/test-clock-commands.ts';
import { TokenCommands } from '../packages/commands/token-commands.ts';
import { WebhookEndpointCommands } from '../packages/commands/webhook-endpoint-commands.ts';
import type { Config } from '../packages/config/environment.ts';
import type { FileStore } from '../packages/files/file-store.ts';
import type { CardNetwork } from '../packages/network/card-network.ts';
import type { ReadModels } from '../packages/projection/read-models.ts';
import type { DocumentStore } from '../packages/readstore/document-store.ts';
import type { CardFingerprinter } from '../packages/vault/card-fingerprint.ts';
import type { Vault } from '../packages/vault/vault.ts';
import { liveBlacklistRules } from './api/blacklist-rules-query.ts';
import { subscriptionsOnClock } from './worker/test-clock-subscriptions-query.ts';

/** What command services are built from: the platform's stores and ports, and each other. */
export interface CommandWiring {
  config: Config;
  aggregates: AggregateStore;
  readModels: ReadModels;
  stateStore: DocumentStore;
  /** Bytes of uploaded files. */
  fileStore: FileStore;
  vault: Vault;
  fingerprinter: CardFingerprinter;
  network: CardNetwork;
  /** Jobs that subscription and test clock commands hand to the workers. */
  background: BackgroundWork;
  /** Card details in, vault references and card snapshots out (shared by every card-taking command). */
  intake: CardIntake;
  /** The other command services, each built on first use. */
  commands: Commands;
}

/** Builds one command service. */
type CommandFactory<Service> = (wiring: CommandWiring) => Service;

/**
 * The command services of every resource, by the name routes and jobs use (`commands.plans`).
 * A resource without commands of its own has `{}`. Each factory's return type is written out:
 * `Commands` is derived from them.
 */
export const resourceCommands = {
  charge: {
    charges: (wiring: CommandWiring): ChargeCommands =>
      new ChargeCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        intake: wiring.intake,
        tokens: wiring.commands.tokens,
        network: wiring.network,
        blacklistRules: (tenant) => liveBlacklistRules(wiring.readModels, tenant),
        accountSettings: (accountId) => accountSettings(wiring.aggregates, accountId),
      }),
    /** Delayed network outcomes (disputes, fraud warnings) delivered to their charges. */
    networkOutcomes: (wiring: CommandWiring): NetworkOutcomeCommands => new NetworkOutcomeCommands(wiring.aggregates),
  },
  refund: {},
  dispute: {
    disputes: (wiring: CommandWiring): DisputeCommands => new DisputeCommands(wiring.aggregates, wiring.network),
  },
  fraudWarning: {},
  credit: {
    credits: (wiring: CommandWiring): CreditCommands =>
      new CreditCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        intake: wiring.intake,
        network: wiring.network,
        blacklistRules: (tenant) => liveBlacklistRules(wiring.readModels, tenant),
        accountSettings: (accountId) => accountSettings(wiring.aggregates, accountId),
      }),
  },
  customer: {
    customers: (wiring: CommandWiring): CustomerCommands =>
      new CustomerCommands({
        aggregates: wiring.aggregates,
        cardSources: wiring.commands.cardSources,
        tokens: wiring.commands.tokens,
        intake: wiring.intake,
        network: wiring.network,
        vault: wiring.vault,
      }),
    /** The business clock of a customer: real time, or its test clock's. */
    customerClock: (wiring: CommandWiring): CustomerClock => new CustomerClock(wiring.aggregates),
  },
  card: {
    /** Where a charge, credit or customer gets its card: card details, a token, or a saved card. */
    cardSources: (wiring: CommandWiring): CardSources =>
      new CardSources(wiring.aggregates, wiring.intake, wiring.commands.tokens),
  },
  paymentMethod: {
    paymentMethods: (wiring: CommandWiring): PaymentMethodCommands =>
      new PaymentMethodCommands(wiring.aggregates, wiring.commands.cardSources),
    /** Charges paid with a payment method: pending until the payer completes them at the provider. */
    paymentMethodCharges: (wiring: CommandWiring): PaymentMethodChargeCommands =>
      new PaymentMethodChargeCommands(wiring.aggregates, wiring.commands.paymentMethods, {
        expirySeconds: wiring.config.paymentMethodChargeExpirySeconds,
        processingDelayMs: wiring.config.paymentMethodProcessingDelayMs,
      }),
  },
  plan: { plans: (wiring: CommandWiring): PlanCommands => new PlanCommands(wiring.aggregates) },
  subscription: {
    subscriptions: (wiring: CommandWiring): SubscriptionCommands =>
      new SubscriptionCommands({
        aggregates: wiring.aggregates,
        charges: wiring.commands.charges,
        plans: wiring.commands.plans,
        clock: wiring.commands.customerClock,
        background: wiring.background,
      }),
  },
  testClock: {
    testClocks: (wiring: CommandWiring): TestClockCommands =>
      new TestClockCommands({
        aggregates: wiring.aggregates,
        subscriptions: wiring.commands.subscriptions,
        background: wiring.background,
        subscriptionsOnClock: (tenant, testClockId) => subscriptionsOnClock(wiring.readModels, tenant, testClockId),
        waitForProjections: async (position) =>
          void (await wiring.readModels.waitFor(position, wiring.config.readYourWritesTimeoutMs)),
      }),
  },
  token: {
    tokens: (wiring: CommandWiring): TokenCommands =>
      new TokenCommands(wiring.aggregates, wiring.intake, wiring.config.tokenTtlSeconds, wiring.network),
  },
  crossSaleOffer: {
    crossSaleOffers: (wiring: CommandWiring): CrossSaleOfferCommands =>
      new CrossSaleOfferCommands(wiring.aggregates, wiring.commands.offerImages),
    /** Cross-sale offer images (operational state, not events). */
    offerImages: (wiring: CommandWiring): OfferImages => new OfferImages(wiring.stateStore.collection('images')),
  },
  blacklistRule: {
    blacklist: (wiring: CommandWiring): BlacklistCommands =>
      new BlacklistCommands(wiring.aggregates, wiring.fingerprinter),
  },
  file: {
    files: (wiring: CommandWiring): FileCommands =>
      new FileCommands(wiring.aggregates, wiring.fileStore, wiring.config.fileMaxBytes),
  },
  event: {},
  webhookEndpoint: {
    webhookEndpoints: (wiring: CommandWiring): WebhookEndpointCommands =>
      new WebhookEndpointCommands(wiring.aggregates, wiring.vault),
  },
  webhookDelivery: {},
  account: {},
} satisfies Record<ResourceName, Record<string, CommandFactory<object>>>;

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void
  ? I
  : never;

type Factories = UnionToIntersection<(typeof resourceCommands)[ResourceName]>;

/** Every command service, by name, derived from `resourceCommands`. */
export type Commands = {
  readonly [Name in keyof Factories]: Factories[Name] extends CommandFactory<infer S> ? S : never;
};

/** Every command service's name and factory, resource by resource. */
export const commandFactories = (): [string, CommandFactory<object>][] =>
  resourceNames.flatMap((resource) => Object.entries<CommandFactory<object>>(resourceCommands[resource]));

/**
 * Builds the command services from the wiring: each on first use, so that a service may use
 * others whatever their order in `resourceCommands` (there are no cycles between them).
 */
export function buildCommands(wiring: Omit<CommandWiring, 'commands'>): Commands {
  const factories = new Map<string, CommandFactory<object>>();
  for (const [name, factory] of commandFactories()) {
    // Two resources naming a service alike would silently share one: refuse to start instead.
    if (factories.has(name)) throw new Error(`Two command services are named ${name}`);
    factories.set(name, factory);
  }
  const built = new Map<string, object>();
  const commands: Record<string, object> = {};
  // Filled with every service below; its type is derived from the very factories that fill it.
  const full: CommandWiring = { ...wiring, commands: commands as Commands };
  for (const [name, factory] of factories) {
    Object.defineProperty(commands, name, {
      enumerable: true,
      get() {
        let service = built.get(name);
        if (!service) built.set(name, (service = factory(full)));
        return service;
      },
    });
  }
  // Build them all now, so that a failing factory stops the start, not a later request.
  for (const name of factories.keys()) void commands[name];
  return full.commands;
}
