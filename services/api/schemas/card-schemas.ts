import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { countryCodeParameter } from './country-codes.ts';

/** Card fields arrive as text in form bodies and as text or numbers in JSON; the network validates them (402). */
const cardText = (description: string, max = 64) =>
  z
    .union([z.string().max(max, { error: `must be at most ${max} characters long` }), z.number().int()], {
      error: 'must be a string',
    })
    .transform(String)
    .meta({ description, type: 'string' });

const optionalText = (description: string, max = 255) => p.string({ max, description }).nullable().optional();

export const fraudCheckDataSchema = p.object({
  ipAddress: p.string({ max: 64 }).optional(),
  ipCountry: countryCodeParameter("Two-letter ISO country code (capital letters) of the payer's IP address").optional(),
  email: p.string({ max: 255 }).optional(),
  phone: p.string({ max: 64 }).optional(),
  userAgent: p.string({ max: 1024 }).optional(),
  acceptLanguage: p.string({ max: 255 }).optional(),
  browserFingerprint: p.string({ max: 255 }).optional(),
});

/**
 * Card `addressCountry`: client libraries send and read back free text, so any text up to
 * ADDRESS_COUNTRY_MAX_LENGTH is kept exactly as sent (only the spec's address object, with its
 * two-letter `country`, is checked for the ISO form).
 */
export const ADDRESS_COUNTRY_MAX_LENGTH = 255;
const addressCountry = () =>
  optionalText(
    'Country of the billing address, as the client gives it (the spec suggests a three-letter ISO code)',
    ADDRESS_COUNTRY_MAX_LENGTH,
  );

/** The cardholder's name and billing address, which card details give and a card update changes. */
const cardholderFields = () => ({
  cardholderName: optionalText('Name on the card'),
  addressLine1: optionalText('Billing address first line'),
  addressLine2: optionalText('Billing address second line'),
  addressCity: optionalText('City'),
  addressState: optionalText('State or province'),
  addressZip: optionalText('ZIP or postal code', 32),
  addressCountry: addressCountry(),
});

/** Card details (spec: Cards › card details for create). */
export const cardDetailsShape = {
  number: cardText('Card number, digits only', 32),
  expMonth: cardText('Expiration month, 1–12', 8),
  expYear: cardText('Expiration year, four digits (two digits mean 20YY)', 8),
  cvc: cardText('Card security code (required)', 8),
  ...cardholderFields(),
  fraudCheckData: fraudCheckDataSchema.optional(),
};

export const cardDetailsSchema = p.object(cardDetailsShape).meta({ id: 'CardDetails' });

/** `card` of charges, customers and credits: an id (token, saved card, charge) or card details. */
export const cardReferenceSchema = z
  .union([p.string({ min: 1, max: 255 }), cardDetailsSchema], {
    error: 'must be a token or card id, or an object of card details',
  })
  .meta({ description: 'A token id (tok_…), a card id (card_…), or card details' });

/** POST /customers/{id}/cards: a token or charge id as `id`, or card details. */
export const createCardBody = z.union(
  [
    p.object({ id: p.string({ min: 1, max: 255, description: 'A token (tok_…) or a successful charge (char_…)' }) }),
    cardDetailsSchema,
  ],
  {
    error: 'must be an id (token or charge) or card details',
  },
);

export const updateCardBody = p.object({
  expMonth: cardText('Expiration month', 8).optional(),
  expYear: cardText('Expiration year (two digits mean 20YY)', 8).optional(),
  ...cardholderFields(),
  checkFastCredit: p
    .bool({ description: 'Check whether the card supports fast credit; fills `fastCredit`' })
    .optional(),
});

export const customerCardParams = z.object({
  customerId: z.string().meta({ description: 'Customer id (cust_…)' }),
  cardId: z.string().meta({ description: 'Card id (card_…)' }),
});

export const listCardsQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted cards; default false' }).optional(),
});

/** What a card and a token made from it both show of the card (never its number). */
export const cardFaceShape = {
  first6: z.string(),
  last4: z.string(),
  fingerprint: z.string(),
  expMonth: z.string(),
  expYear: z.string(),
  cardholderName: z.string().nullable(),
};

export const cardSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('card'),
    ...cardFaceShape,
    customerId: z.string().nullable(),
    brand: z.enum(['Visa', 'American Express', 'MasterCard', 'Maestro', 'Discover', 'JCB', 'Diners Club', 'Unknown']),
    type: z.enum(['Credit Card', 'Debit Card', 'Prepaid Card', 'Unknown']),
    country: z.string().nullable(),
    issuer: z.string().nullable(),
    addressLine1: z.string().nullable(),
    addressLine2: z.string().nullable(),
    addressCity: z.string().nullable(),
    addressState: z.string().nullable(),
    addressZip: z.string().nullable(),
    addressCountry: z.string().nullable(),
    fraudCheckData: z.record(z.string(), z.string()).nullable(),
    merchantAccountId: z.string().nullable(),
    fastCredit: z.object({ supported: z.boolean(), updated: z.number().int() }).optional(),
    deleted: z.literal(true).optional(),
  })
  .meta({ id: 'Card' });
