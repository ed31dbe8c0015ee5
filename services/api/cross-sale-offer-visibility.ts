import { everyDocument } from '../../packages/readstore/every-document.ts';
import type { CheckoutOfferView, OfferedPlan } from '../../packages/checkout/checkout-view.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import type { UsableOffer, UsableOffers } from '../../packages/commands/cross-sale-offer-commands.ts';
import { InvalidRequestError } from '../../packages/domain/errors.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { CursorNotFoundError, type CreatedRange } from '../../packages/readstore/document-store.ts';
import { accountsCollection, partnerIdsOf } from '../../projections/accounts-projection.ts';
import { crossSaleOffersCollection } from '../../projections/cross-sale-offers-projection.ts';
import { plansCollection } from '../../projections/plans-projection.ts';
import type { CrossSaleOfferDoc } from '../../projections/views/cross-sale-offer-view.ts';
import { publicObject, type PublicObject } from '../../projections/views/object-view.ts';
import type { ListParameters } from './object-reader.ts';

/** Page size when reading every offer of one account. */
const PAGE_SIZE = 100;

/**
 * Which cross-sale offers an account sees (`docs/api.md`, "Cross-sale offers"): its own, and
 * those of the accounts on its partner list that are visible to it (`visibleForAllPartners`, or
 * `partnerIds` naming it), in the same mode. The partner relation is directed: with B on A's
 * list, A sees B's offers that B made visible to A, and B sees nothing more of A's.
 */
export class CrossSaleOfferVisibility implements UsableOffers {
  constructor(private readonly readModels: ReadModels) {}

  /** An offer the viewer sees (deleted ones too, with `deleted: true`), or null. */
  async get(offerId: string, viewer: Tenant): Promise<CrossSaleOfferDoc | null> {
    const offer = await this.readModels.collection(crossSaleOffersCollection).get(offerId);
    if (!offer || offer._mode !== viewer.mode) return null;
    if (offer._accountId === viewer.accountId) return offer;
    const partners = await this.partnersOf(viewer.accountId);
    return partners.includes(offer._accountId) && visibleToPartner(offer, viewer.accountId) ? offer : null;
  }

  /**
   * The viewer's offers and its partners' visible ones, newest first, paged like every list.
   * Each account's offers are kept in their own read-model lists, so the union is gathered and
   * ordered here; cursors may name any offer the viewer sees.
   */
  async list(
    viewer: Tenant,
    page: ListParameters,
    deleted: boolean,
  ): Promise<{ list: PublicObject<CrossSaleOfferDoc>[]; hasMore: boolean }> {
    const partners = await this.partnersOf(viewer.accountId);
    const seen: CrossSaleOfferDoc[] = [];
    for (const owner of [viewer.accountId, ...partners]) {
      for (const offer of await this.offersOf(owner, viewer.mode, deleted, page.created)) {
        if (owner === viewer.accountId || visibleToPartner(offer, viewer.accountId)) seen.push(offer);
      }
    }
    seen.sort(newestFirst);
    const at = async (parameter: 'startingAfterId' | 'endingBeforeId', id: string) => {
      const cursor = await this.get(id, viewer);
      if (!cursor) throw new CursorNotFoundError(parameter, id);
      return cursor;
    };
    if (page.startingAfterId !== undefined) {
      const cursor = await at('startingAfterId', page.startingAfterId);
      const older = seen.filter((offer) => newestFirst(offer, cursor) > 0);
      return { list: older.slice(0, page.limit).map(publicObject), hasMore: older.length > page.limit };
    }
    if (page.endingBeforeId !== undefined) {
      const cursor = await at('endingBeforeId', page.endingBeforeId);
      const newer = seen.filter((offer) => newestFirst(offer, cursor) < 0);
      return { list: newer.slice(-page.limit).map(publicObject), hasMore: newer.length > page.limit };
    }
    return { list: seen.slice(0, page.limit).map(publicObject), hasMore: seen.length > page.limit };
  }

  /**
   * Offers the account may use in its checkout, as the checkout page shows them: its own, and those
   * of the accounts on its partner list that are visible to it, not deleted, newest first. With
   * `offerIds`, exactly those, in that order; an id that is not usable is a 400 `invalid_request`
   * with `param: 'crossSaleOfferIds'`.
   */
  async availableTo(accountId: string, mode: Mode, offerIds?: string[]): Promise<CheckoutOfferView[]> {
    return (await this.usableOffers({ accountId, mode }, offerIds, 'crossSaleOfferIds')).map(({ view }) => view);
  }

  async usableBy(
    accountId: string,
    mode: Mode,
    offerIds?: string[],
    parameter = 'crossSaleOfferIds',
  ): Promise<UsableOffer[]> {
    const offers = await this.usableOffers({ accountId, mode }, offerIds, parameter);
    return offers.map(({ offer }) => ({ id: offer.id, accountId: offer._accountId }));
  }

  /** What checkout shows of an offer; null for a subscription offer whose plan is gone (it cannot be bought). */
  private async checkoutOfferView(offer: CrossSaleOfferDoc): Promise<CheckoutOfferView | null> {
    const subscription = offer.subscription ? await this.offeredPlan(offer, offer.subscription.planId) : null;
    if (offer.subscription && !subscription) return null;
    return {
      id: offer.id,
      accountId: offer._accountId,
      template: offer.template,
      title: offer.title,
      description: offer.description,
      imageUrl: offer.imageUrl,
      charge: offer.charge ? { amount: offer.charge.amount, currency: offer.charge.currency } : null,
      subscription,
      companyName: offer.companyName,
      companyLocation: offer.companyLocation,
      termsAndConditionsUrl: offer.termsAndConditionsUrl,
    };
  }

  /** The offer's plan, of the offer's account and mode, unless deleted. */
  private async offeredPlan(offer: CrossSaleOfferDoc, planId: string): Promise<OfferedPlan | null> {
    const plan = await this.readModels.collection(plansCollection).get(planId);
    if (!plan || plan._accountId !== offer._accountId || plan._mode !== offer._mode || plan._deleted) return null;
    return {
      planId: plan.id,
      name: plan.name,
      amount: plan.amount,
      currency: plan.currency,
      interval: plan.interval,
      intervalCount: plan.intervalCount,
      trialPeriodDays: plan.trialPeriodDays ?? null,
    };
  }

  async ownerOf(offerId: string, mode: Mode): Promise<string | null> {
    const offer = await this.readModels.collection(crossSaleOffersCollection).get(offerId);
    return offer && offer._mode === mode ? offer._accountId : null;
  }

  /** The account's partner list (never the account itself). */
  async partnersOf(accountId: string): Promise<string[]> {
    const account = await this.readModels.collection(accountsCollection).get(accountId);
    return partnerIdsOf(account).filter((partnerId) => partnerId !== accountId);
  }

  /**
   * The viewer's usable offers (see `availableTo`), each with what checkout shows of it; an unusable
   * one of `offerIds` (also a subscription offer whose plan is gone) is refused naming `parameter`.
   */
  private async usableOffers(
    viewer: Tenant,
    offerIds: string[] | undefined,
    parameter: string,
  ): Promise<{ offer: CrossSaleOfferDoc; view: CheckoutOfferView }[]> {
    if (offerIds === undefined) {
      const usable: CrossSaleOfferDoc[] = [];
      const partners = await this.partnersOf(viewer.accountId);
      for (const owner of [viewer.accountId, ...partners]) {
        for (const offer of await this.offersOf(owner, viewer.mode, false)) {
          if (owner === viewer.accountId || visibleToPartner(offer, viewer.accountId)) usable.push(offer);
        }
      }
      const viewed = await Promise.all(
        usable.sort(newestFirst).map(async (offer) => ({ offer, view: await this.checkoutOfferView(offer) })),
      );
      return viewed.filter(
        (entry): entry is { offer: CrossSaleOfferDoc; view: CheckoutOfferView } => entry.view !== null,
      );
    }
    const offers: { offer: CrossSaleOfferDoc; view: CheckoutOfferView }[] = [];
    for (const offerId of offerIds) {
      const offer = await this.get(offerId, viewer);
      const view = offer && !offer._deleted ? await this.checkoutOfferView(offer) : null;
      if (!offer || !view)
        throw new InvalidRequestError(
          `Invalid parameter: ${parameter}: '${offerId}' is not a cross-sale offer this account may use`,
          parameter,
        );
      offers.push({ offer, view });
    }
    return offers;
  }

  /** Every offer of one account and mode, deleted or not as asked. */
  private async offersOf(
    owner: string,
    mode: Mode,
    deleted: boolean,
    created?: CreatedRange,
  ): Promise<CrossSaleOfferDoc[]> {
    const collection = this.readModels.collection(crossSaleOffersCollection);
    const filter = { _accountId: owner, _mode: mode, _deleted: deleted };
    return everyDocument(collection, { filter, ...(created ? { created } : {}) }, { pageSize: PAGE_SIZE });
  }
}

/** A partner's offer is visible to the viewer when it is for all partners or names the viewer. */
const visibleToPartner = (offer: CrossSaleOfferDoc, viewerId: string): boolean =>
  offer.visibleForAllPartners || offer.partnerIds.includes(viewerId);

/** Lists' order: `created` descending, then creation position descending (unique across accounts). */
const newestFirst = (a: CrossSaleOfferDoc, b: CrossSaleOfferDoc): number => b.created - a.created || b._seq - a._seq;
