import { z } from 'zod';
import { anyCaseCountryCodeParameter } from './country-codes.ts';
import { p } from '../../../packages/http/params.ts';
import { amount, isoCurrency } from './money-schemas.ts';

const companyLocation = () =>
  anyCaseCountryCodeParameter('Country of the company: two-letter ISO country code (any case; stored upper-cased)');

const url = () =>
  z
    .string({ error: 'must be an http(s) URL' })
    .max(2048, { error: 'must be at most 2048 characters long' })
    .refine((value) => /^https?:\/\/\S+$/i.test(value), { error: 'must be an http(s) URL' })
    .meta({ description: 'Address of the terms and conditions (http or https)', example: 'https://example.com/terms' });

const fields = () => ({
  chargeAmount: amount('Amount of the offer charge, in minor units'),
  chargeCurrency: isoCurrency(),
  chargeCapture: p.bool({ description: 'Whether the offer charge is captured at once (default true)' }),
  planId: p.id('plan', { description: 'Plan of the subscription: one of the offer’s account, not deleted' }),
  captureCharges: p.bool({ description: 'Whether the subscription’s charges are captured at once (default true)' }),
  template: p.enum(['image_and_text', 'text_only'], {
    description: 'How checkout shows the offer; image_and_text requires imageData',
  }),
  title: p.string({ min: 1, max: 255, description: 'Title shown in checkout' }),
  description: p.string({ max: 1000, description: 'Description shown in checkout' }).nullable(),
  imageData: p.string({
    min: 1,
    description:
      'Base64 PNG, JPEG or GIF (at most 2 MB decoded; the request body limit MAX_BODY_BYTES applies too); scaled to 247×156 and stored as PNG',
  }),
  companyName: p.string({ max: 255, description: 'Name of the company making the offer' }).nullable(),
  companyLocation: companyLocation().nullable(),
  termsAndConditionsUrl: url().nullable(),
  visibleForAllPartners: p.bool({
    description: 'Visible to every partner (default false); partnerIds has no effect then',
  }),
  partnerIds: z
    .array(p.id('acct'), { error: 'must be a list of account ids' })
    .max(100, { error: 'must have at most 100 account ids' })
    .meta({
      description:
        'Existing accounts the offer is visible to (our name for the spec’s partner setting), when they have the offer’s account on their partner list; no effect when visibleForAllPartners',
    }),
  visibleForPartnerIds: z
    .array(p.id('acct'), { error: 'must be a list of account ids' })
    .max(100, { error: 'must have at most 100 account ids' })
    .meta({
      description:
        'partnerIds by the name the public client libraries give it; given with partnerIds, it must name the same accounts',
    }),
});

/** `visibleForPartnerIds` and `partnerIds` are one setting: given both, they must name the same accounts. */
const samePartners = (body: { partnerIds?: string[]; visibleForPartnerIds?: string[] }): boolean =>
  body.partnerIds === undefined ||
  body.visibleForPartnerIds === undefined ||
  (body.partnerIds.length === body.visibleForPartnerIds.length &&
    body.partnerIds.every((id, index) => body.visibleForPartnerIds![index] === id));
const SAME_PARTNERS = { error: 'must name the same accounts as partnerIds', path: ['visibleForPartnerIds'] };

export const createCrossSaleOfferBody = (() => {
  const f = fields();
  return p
    .object({
      charge: p
        .object(
          { amount: f.chargeAmount, currency: f.chargeCurrency, capture: f.chargeCapture.optional() },
          { description: 'The charge made when the offer is bought; exactly one of charge and subscription' },
        )
        .optional(),
      subscription: p
        .object(
          { planId: f.planId, captureCharges: f.captureCharges.optional() },
          {
            description:
              'The subscription made when the offer is bought, to a plan of the offer’s account; exactly one of charge and subscription',
          },
        )
        .optional(),
      template: f.template,
      title: f.title,
      ...optionalOfferDetails(f),
    })
    .refine(samePartners, SAME_PARTNERS);
})();

/** What both creating and changing an offer may give, each part optional. */
function optionalOfferDetails(f: ReturnType<typeof fields>) {
  return {
    description: f.description.optional(),
    imageData: f.imageData.optional(),
    companyName: f.companyName.optional(),
    companyLocation: f.companyLocation.optional(),
    termsAndConditionsUrl: f.termsAndConditionsUrl.optional(),
    visibleForAllPartners: f.visibleForAllPartners.optional(),
    partnerIds: f.partnerIds.optional(),
    visibleForPartnerIds: f.visibleForPartnerIds.optional(),
  };
}

export const updateCrossSaleOfferBody = (() => {
  const f = fields();
  return p
    .object({
      charge: p
        .object(
          {
            amount: f.chargeAmount.optional(),
            currency: f.chargeCurrency.optional(),
            capture: f.chargeCapture.optional(),
          },
          { description: 'Only the parts given change; on a subscription offer: the whole charge, replacing it' },
        )
        .optional(),
      subscription: p
        .object(
          { planId: f.planId.optional(), captureCharges: f.captureCharges.optional() },
          { description: 'Only the parts given change; on a charge offer: the subscription (planId), replacing it' },
        )
        .optional(),
      template: f.template.optional(),
      title: f.title.optional(),
      ...optionalOfferDetails(f),
    })
    .refine(samePartners, SAME_PARTNERS);
})();

export const listCrossSaleOffersQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted offers; default false' }).optional(),
  owner: p
    .enum(['self'], {
      description:
        'self: only the caller’s own offers; without it, also the offers of the accounts on the caller’s partner list that are visible to the caller',
    })
    .optional(),
});

export const crossSaleOfferIdParams = z.object({
  crossSaleOfferId: z.string().meta({ description: 'Cross-sale offer id (cso_…)' }),
});

export const crossSaleOfferSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('crossSaleOffer'),
    accountId: z.string().meta({
      description:
        'The account that made the offer: the caller’s own id, or a partner’s (an offer of an account on the caller’s partner list that is visible to the caller; read-only for the caller)',
      example: 'acct_2Vb8xWc0aYqZ1eTfM4nLs7Qd',
    }),
    charge: z
      .object({ amount: z.number().int(), currency: z.string(), capture: z.boolean() })
      .nullable()
      .meta({ description: 'The charge made when the offer is bought; null for a subscription offer' }),
    subscription: z
      .object({ planId: z.string(), captureCharges: z.boolean() })
      .nullable()
      .meta({ description: 'The subscription made when the offer is bought; null for a charge offer' }),
    template: z.enum(['image_and_text', 'text_only']),
    title: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable().meta({
      description:
        'Address of the scaled PNG image (GET, no API key needed), absolute with the address the request came in with; null without an image',
    }),
    companyName: z.string().nullable(),
    companyLocation: z.string().nullable(),
    termsAndConditionsUrl: z.string().nullable(),
    visibleForAllPartners: z.boolean(),
    partnerIds: z.array(z.string()),
    visibleForPartnerIds: z
      .array(z.string())
      .meta({ description: 'partnerIds, by the name the public client libraries read' }),
    deleted: z.literal(true).optional(),
  })
  .meta({ id: 'CrossSaleOffer' });
