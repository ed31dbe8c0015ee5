import {
  bothProducts,
  crossSaleOfferDecider,
  requireOneProduct,
  type OfferChanges,
} from '../domain/cross-sale-offer/cross-sale-offer-decider.ts';
import {
  crossSaleOfferResource,
  crossSaleOfferStream,
  type OfferTemplate,
  type OfferTerms,
} from '../domain/cross-sale-offer/cross-sale-offer-events.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { OfferImages } from './offer-image.ts';
import {
  CrossSalePurchases,
  type CrossSalePurchase,
  type CrossSalePurchaseContext,
  type CrossSalePurchaseInput,
  type CrossSalePurchasesDeps,
} from './cross-sale-purchases.ts';

export type {
  UsableOffer,
  UsableOffers,
  CrossSalePurchaseInput,
  CrossSalePurchaseContext,
  CrossSalePurchase,
} from './cross-sale-purchases.ts';

export interface CrossSaleOfferCommandsDeps extends CrossSalePurchasesDeps {
  images: OfferImages;
  /** Whether an account exists (offers' `partnerIds` must name existing accounts). */
  accountExists: (accountId: string) => Promise<boolean>;
}

export interface CreateCrossSaleOfferInput {
  /** Exactly one of `charge` and `subscription`. */
  charge?: { amount: number; currency: string; capture?: boolean };
  /** `planId`: a plan of the offer's account (same mode), not deleted. */
  subscription?: { planId: string; captureCharges?: boolean };
  template: OfferTemplate;
  title: string;
  description?: string | null;
  /** Base64 PNG, JPEG or GIF; stored apart from the events (see OfferImages). */
  imageData?: string;
  companyName?: string | null;
  companyLocation?: string | null;
  termsAndConditionsUrl?: string | null;
  visibleForAllPartners?: boolean;
  partnerIds?: string[];
}

export type UpdateCrossSaleOfferInput = Partial<Omit<CreateCrossSaleOfferInput, 'charge' | 'subscription'>> & {
  charge?: Partial<NonNullable<CreateCrossSaleOfferInput['charge']>>;
  subscription?: Partial<NonNullable<CreateCrossSaleOfferInput['subscription']>>;
};

/**
 * Cross-sale offers: one stream per offer, soft-deleted like plans; and their purchase in a
 * merchant's checkout, which charges the offer owner's account (`docs/api.md`, "Cross-sale offers").
 */
export class CrossSaleOfferCommands {
  private readonly aggregates: AggregateStore;
  private readonly images: OfferImages;
  private readonly purchasing: CrossSalePurchases;

  constructor(private readonly deps: CrossSaleOfferCommandsDeps) {
    this.aggregates = deps.aggregates;
    this.images = deps.images;
    this.purchasing = new CrossSalePurchases(deps);
  }

  async create(input: CreateCrossSaleOfferInput, context: CommandContext): Promise<CommandOutcome> {
    const offerId = createdObjectId(crossSaleOfferResource, context);
    const earlier = await this.aggregates.createdEarlier(crossSaleOfferStream(offerId), context);
    if (earlier !== undefined) return { id: offerId, position: earlier };
    // Refusals come before the image is stored.
    requireOneProduct({ charge: input.charge ?? null, subscription: input.subscription ?? null });
    await this.requireExistingPartners(input.partnerIds);
    await this.requireUsablePlan(input.subscription?.planId, context);
    const { charge, subscription } = input;
    const terms: OfferTerms = {
      charge: charge ? { amount: charge.amount, currency: charge.currency, capture: charge.capture ?? true } : null,
      subscription: subscription
        ? { planId: subscription.planId, captureCharges: subscription.captureCharges ?? true }
        : null,
      template: input.template,
      title: input.title,
      description: input.description ?? null,
      imageId: input.imageData === undefined ? null : await this.images.store(input.imageData, context),
      companyName: input.companyName ?? null,
      companyLocation: input.companyLocation ?? null,
      termsAndConditionsUrl: input.termsAndConditionsUrl ?? null,
      visibleForAllPartners: input.visibleForAllPartners ?? false,
      partnerIds: input.partnerIds ?? [],
    };
    return this.aggregates.executeOn(
      crossSaleOfferDecider,
      crossSaleOfferStream,
      offerId,
      { type: 'CreateCrossSaleOffer', offerId, terms },
      context,
    );
  }

  async update(offerId: string, input: UpdateCrossSaleOfferInput, context: CommandContext): Promise<CommandOutcome> {
    if (input.charge !== undefined && input.subscription !== undefined) throw bothProducts();
    await this.requireExistingPartners(input.partnerIds);
    await this.requireUsablePlan(input.subscription?.planId, context);
    const { imageData, ...rest } = input;
    const changes: OfferChanges = { ...rest };
    if (imageData !== undefined) changes.imageId = await this.images.store(imageData, context);
    return this.aggregates.executeOn(
      crossSaleOfferDecider,
      crossSaleOfferStream,
      offerId,
      { type: 'UpdateCrossSaleOffer', offerId, changes },
      context,
    );
  }

  delete(offerId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.aggregates.executeOn(
      crossSaleOfferDecider,
      crossSaleOfferStream,
      offerId,
      { type: 'DeleteCrossSaleOffer', offerId },
      context,
    );
  }

  /** Buys an offer for the payer of a merchant's checkout (see `CrossSalePurchases`). */
  purchase(input: CrossSalePurchaseInput, context: CrossSalePurchaseContext): Promise<CrossSalePurchase> {
    return this.purchasing.purchase(input, context);
  }

  /** A subscription offer's plan: one of the offer's account and mode, not deleted. */
  private async requireUsablePlan(planId: string | undefined, tenant: Tenant): Promise<void> {
    if (planId === undefined) return;
    const plan = await this.deps.plans.find(planId, tenant);
    if (!plan)
      throw new InvalidRequestError(
        `Invalid parameter: subscription[planId]: plan '${planId}' does not exist`,
        'subscription[planId]',
      );
    if (plan.status === 'deleted')
      throw new InvalidRequestError(
        `Invalid parameter: subscription[planId]: plan '${planId}' has been deleted`,
        'subscription[planId]',
      );
  }

  /** Offers' `partnerIds` must name existing accounts. */
  private async requireExistingPartners(partnerIds: string[] | undefined): Promise<void> {
    for (const [index, partnerId] of (partnerIds ?? []).entries()) {
      if (!(await this.deps.accountExists(partnerId)))
        throw new InvalidRequestError(
          `Invalid parameter: partnerIds[${index}]: account '${partnerId}' does not exist`,
          'partnerIds',
        );
    }
  }
}
