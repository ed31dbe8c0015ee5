import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';
import { countryCodeParameter } from './country-codes.ts';

const text = (max = 255) => p.string({ max }).optional();

export const addressSchema = p.object({
  line1: text(),
  line2: text(),
  zip: text(32),
  city: text(),
  state: text(),
  country: countryCodeParameter('Two-letter ISO country code (capital letters)').optional(),
});

export const shippingSchema = p.object({ name: text(), address: addressSchema.optional(), phone: text(64) });

export const billingSchema = p.object({
  name: text(),
  email: text(),
  address: addressSchema.optional(),
  phone: text(64),
  vat: text(64),
});

/** An address as answers carry it: the fields the client gave. */
const addressObject = z
  .object({
    line1: z.string().optional(),
    line2: z.string().optional(),
    zip: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    country: z.string().optional(),
  })
  .meta({ id: 'Address' });

/** Shipping details as answers carry them (charges, subscriptions). */
export const shippingObject = z.object({
  name: z.string().optional(),
  address: addressObject.optional(),
  phone: z.string().optional(),
});

/** Billing details as answers carry them (charges, subscriptions, payment methods). */
export const billingObject = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  address: addressObject.optional(),
  phone: z.string().optional(),
  vat: z.string().optional(),
});
