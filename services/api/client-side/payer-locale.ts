import type { Request } from 'express';
import { acceptedLanguages, chooseLocale, type Locale } from '../../../packages/client-side/i18n/index.ts';

/**
 * The language of a page a payer opens: `locale=` (the merchant's option, or the browser's language
 * as the library read it), else the browser's `Accept-Language`, else English.
 */
export function payerLocale(req: Request): Locale {
  const asked = typeof req.query.locale === 'string' ? req.query.locale : null;
  return chooseLocale(asked, ...acceptedLanguages(req.get('accept-language')));
}
