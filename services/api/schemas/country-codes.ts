import { createRequire } from 'node:module';
import type CountriesModule from 'i18n-iso-countries';
import { z } from 'zod';

type Countries = typeof CountriesModule;

let countries: Countries | undefined;

/**
 * Whether `value` is a two-letter ISO 3166-1 country code (any case). The country list is loaded
 * on the first check, not at start: it holds megabytes of names a process rarely needs.
 */
export function isCountryCode(value: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(value)) return false;
  countries ??= createRequire(import.meta.url)('i18n-iso-countries') as Countries;
  return countries.isValid(value.toUpperCase());
}

const NOT_A_COUNTRY_CODE = 'must be a two-letter ISO country code';

/**
 * A parameter holding a two-letter ISO 3166-1 country code as the spec writes it: two capital
 * letters (`PL`) of a country that exists. Addresses and the payer's IP country are stored and
 * answered as sent, so `pl` is refused rather than kept in a spelling no other object uses.
 */
export function countryCodeParameter(description: string) {
  return z
    .string({ error: NOT_A_COUNTRY_CODE })
    .refine((value) => /^[A-Z]{2}$/.test(value) && isCountryCode(value), { error: NOT_A_COUNTRY_CODE })
    .meta({ description, example: 'PL' });
}

/**
 * A country code accepted in any case (`pl` can only mean Poland) and handed on upper-cased, the
 * one spelling stored and answered: for settings that always took any case (a cross-sale offer's
 * company location).
 */
export function anyCaseCountryCodeParameter(description: string) {
  return z
    .string({ error: NOT_A_COUNTRY_CODE })
    .refine(isCountryCode, { error: NOT_A_COUNTRY_CODE })
    .transform((value) => value.toUpperCase())
    .meta({ description, example: 'PL' });
}

/** Every country code with its name in `locale` (by the runtime's own names), sorted by name. */
export function countryNames(locale: string): Array<{ code: string; name: string }> {
  countries ??= createRequire(import.meta.url)('i18n-iso-countries') as Countries;
  const names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
  return Object.keys(countries.getAlpha2Codes())
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}
