import type { AggregateStore } from '../packages/commands/aggregate-store.ts';
import type { BackgroundWork } from '../packages/commands/background-work.ts';
import type { CardIntake } from '../packages/commands/card-intake.ts';
import type { Config } from '../packages/config/environment.ts';
import type { FileStore } from '../packages/files/file-store.ts';
import type { CardNetwork } from '../packages/network/card-network.ts';
import type { ReadModels } from '../packages/projection-runtime/read-models.ts';
import type { DocumentStore } from '../packages/readstore/document-store.ts';
import type { CardFingerprinter } from '../packages/vault/card-fingerprint.ts';
import type { Vault } from '../packages/vault/vault.ts';

/**
 * Every command service, by the name routes and jobs use (`commands.plans`). Each resource module
 * (`services/resources/<resource>-resource.ts`) adds the services it builds to this interface,
 * next to their factories, and the resource list checks that each name is built by exactly one
 * module. It is an interface, not a type derived from the list, because the routes of the list's
 * modules need it: deriving it from the list would make the list depend on itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the resource modules
export interface Commands {}

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
export type CommandFactory<Service> = (wiring: CommandWiring) => Service;

/** Factories of some of the command services (those of one resource). */
export type CommandFactories = { readonly [Name in keyof Commands]?: CommandFactory<Commands[Name]> };
