import {
  crossSaleOfferDecider,
  type CrossSaleOfferCommand,
  type OfferChanges,
} from '../domain/cross-sale-offer/cross-sale-offer-decider.ts';
import {
  crossSaleOfferResource,
  crossSaleOfferStream,
  type OfferTemplate,
  type OfferTerms,
} from '../domain/cross-sale-offer/cross-sale-offer-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { OfferImages } from './offer-image.ts';

export interface CreateCrossSaleOfferInput {
  charge: { amount: number; currency: string; capture?: boolean };
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

export type UpdateCrossSaleOfferInput = Partial<Omit<CreateCrossSaleOfferInput, 'charge'>> & {
  charge?: Partial<CreateCrossSaleOfferInput['charge']>;
};

/** Cross-sale offers: one stream per offer, soft-deleted like plans. */
export class CrossSaleOfferCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly images: OfferImages,
  ) {}

  async create(input: CreateCrossSaleOfferInput, context: CommandContext): Promise<CommandOutcome> {
    const offerId = createdObjectId(crossSaleOfferResource, context);
    const earlier = await this.aggregates.createdEarlier(crossSaleOfferStream(offerId), context);
    if (earlier !== undefined) return { id: offerId, position: earlier };
    const terms: OfferTerms = {
      charge: { amount: input.charge.amount, currency: input.charge.currency, capture: input.charge.capture ?? true },
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
    return this.run(offerId, { type: 'CreateCrossSaleOffer', offerId, terms }, context);
  }

  async update(offerId: string, input: UpdateCrossSaleOfferInput, context: CommandContext): Promise<CommandOutcome> {
    const { imageData, ...rest } = input;
    const changes: OfferChanges = { ...rest };
    if (imageData !== undefined) changes.imageId = await this.images.store(imageData, context);
    return this.run(offerId, { type: 'UpdateCrossSaleOffer', offerId, changes }, context);
  }

  delete(offerId: string, context: CommandContext): Promise<CommandOutcome> {
    return this.run(offerId, { type: 'DeleteCrossSaleOffer', offerId }, context);
  }

  private async run(offerId: string, command: CrossSaleOfferCommand, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(
      crossSaleOfferDecider,
      crossSaleOfferStream(offerId),
      command,
      context,
    );
    return { id: offerId, position: result.position };
  }
}
