import type { InternalIdPrefix } from '../../packages/ids/object-id.ts';
import type { Commands } from '../commands.ts';
import { chargeModule } from './charge-resource.ts';
import { refundModule } from './refund-resource.ts';
import { disputeModule } from './dispute-resource.ts';
import { fraudWarningModule } from './fraud-warning-resource.ts';
import { creditModule } from './credit-resource.ts';
import { customerModule } from './customer-resource.ts';
import { cardModule } from './card-resource.ts';
import { paymentMethodModule } from './payment-method-resource.ts';
import { planModule } from './plan-resource.ts';
import { subscriptionModule } from './subscription-resource.ts';
import { testClockModule } from './test-clock-resource.ts';
import { tokenModule } from './token-resource.ts';
import { crossSaleOfferModule } from './cross-sale-offer-resource.ts';
import { blacklistRuleModule } from './blacklist-rule-resource.ts';
import { fileModule } from './file-resource.ts';
import { eventModule } from './event-resource.ts';
import { webhookEndpointModule } from './webhook-endpoint-resource.ts';
import { webhookDeliveryModule } from './webhook-delivery-resource.ts';
import { accountModule } from './account-resource.ts';
import type { ResourceModule } from './resource-module.ts';

/**
 * Every resource of the service, one line each: the one list a new resource is registered in
 * (`docs/architecture.md`, "Resource modules"). Every registry is derived from it
 * (`registries.ts`, `services/resource-commands.ts`, `services/api/routes/index.ts`), in its
 * order: the order of the API documentation and of the public event types. The resources whose
 * read models are built from every other resource's public events (events, webhook deliveries)
 * are handed the public events of the whole list, wherever they stand in it.
 */
export const resourceModules = [
  chargeModule,
  refundModule,
  disputeModule,
  fraudWarningModule,
  creditModule,
  customerModule,
  cardModule,
  paymentMethodModule,
  planModule,
  subscriptionModule,
  testClockModule,
  tokenModule,
  crossSaleOfferModule,
  blacklistRuleModule,
  fileModule,
  eventModule,
  webhookEndpointModule,
  webhookDeliveryModule,
  accountModule,
] as const satisfies readonly ResourceModule[];

type Modules = typeof resourceModules;

/** One thing of each module, in the list's order. */
type Each<List extends readonly ResourceModule[], Part extends 'name' | 'idPrefix' | 'stream' | 'commands'> = {
  [Index in keyof List]: List[Index] extends ResourceModule
    ? Part extends 'commands'
      ? keyof List[Index]['commands']
      : List[Index]['identity'][Exclude<Part, 'commands'>]
    : never;
};

type Names = Each<Modules, 'name'>;
type IdPrefixes = Each<Modules, 'idPrefix'>;

/** The items of a list that an earlier item already had. */
type Repeated<Items extends readonly unknown[], Seen = never> = Items extends readonly [infer First, ...infer Rest]
  ? (First extends Seen ? First : never) | Repeated<Rest, Seen | First>
  : never;

/*
 * Checks of the list, when compiling: each constraint below fails with the offending names.
 */

/** Two lines for one resource. */
export type RepeatedResource<Repeats extends never = Repeated<Names>> = Repeats;

/** A prefix two resources use: an id must tell its resource (history, the CLI's stream lookup). */
export type SharedIdPrefix<Shared extends never = Repeated<IdPrefixes>> = Shared;

/** A resource using a prefix of ids that name no resource (request ids, vault references, ...). */
export type InternalIdPrefixClash<Clash extends never = Extract<IdPrefixes[number], InternalIdPrefix>> = Clash;

/** A resource whose objects live in the streams of a resource that is not in the list. */
export type StreamHostNotListed<
  Missing extends never = Exclude<Extract<Each<Modules, 'stream'>[number], object>['name'], Names[number]>,
> = Missing;

/** A command service of `Commands` that no module of the list builds. */
export type CommandServiceNotBuilt<Missing extends never = Exclude<keyof Commands, Each<Modules, 'commands'>[number]>> =
  Missing;
