import { p } from '../../../packages/http/params.ts';

const text = (max = 255) => p.string({ max }).optional();

export const addressSchema = p.object({
  line1: text(),
  line2: text(),
  zip: text(32),
  city: text(),
  state: text(),
  country: p.string({ max: 2, description: 'Two-letter ISO country code' }).optional(),
});

export const shippingSchema = p.object({ name: text(), address: addressSchema.optional(), phone: text(64) });

export const billingSchema = p.object({
  name: text(),
  email: text(),
  address: addressSchema.optional(),
  phone: text(64),
  vat: text(64),
});
