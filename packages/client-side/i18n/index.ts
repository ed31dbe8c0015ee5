import { de } from './de.ts';
import { en, type Catalog, type Message, type MessageKey, type PluralMessage } from './en.ts';
import { es } from './es.ts';
import { fill } from './fill.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';

export type { Catalog, Message, MessageKey, PluralMessage };

/**
 * What payers read on the checkout, the card fields, the 3-D Secure challenge and the
 * payment-method page, one catalog per language (`en.ts` is the reference).
 */
export const CATALOGS = { en, de, fr, es, it, pl, pt, nl } as const satisfies Record<string, Catalog>;

export type Locale = keyof typeof CATALOGS;

/**
 * The first of the candidates (the merchant's `locale` option, then the browser's languages) whose
 * language has a catalog: `de-AT` → `de`; English when none has.
 */
export function chooseLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const candidate of candidates) {
    const language = candidate?.trim().toLowerCase().split(/[-_]/)[0];
    if (language && Object.hasOwn(CATALOGS, language)) return language as Locale;
  }
  return 'en';
}

/** The languages an `Accept-Language` header names, by weight. */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((entry) => entry.tag);
}

/** The message in the locale, its `{placeholders}` filled in (a plural message: the form for `count`). */
export function translate(locale: Locale, key: MessageKey, values: Record<string, string | number> = {}): string {
  return fill(CATALOGS[locale][key], values, locale);
}
