import currencyCodes from 'currency-codes';
import type { AccountSettings } from '../../packages/domain/account/account-events.ts';
import type { CardBrand } from '../../packages/domain/card/card-snapshot.ts';

const CARD_BRANDS: readonly CardBrand[] = [
  'Visa',
  'MasterCard',
  'American Express',
  'Discover',
  'JCB',
  'Diners Club',
  'Maestro',
  'Unknown',
];

export interface SettingsOptions {
  subscriptionFailureStatus?: string;
  currencies?: string;
  brands?: string;
  credits?: string;
  checkoutOrigins?: string;
}

/** The settings an `accounts settings` command line asks for; throws on a value it cannot take. */
export function settingsFromOptions(options: SettingsOptions): Partial<AccountSettings> {
  const settings: Partial<AccountSettings> = {};
  const status = options.subscriptionFailureStatus;
  if (status !== undefined) {
    if (status !== 'canceled' && status !== 'unpaid')
      throw new Error('--subscription-failure-status must be canceled or unpaid');
    settings.subscriptionFailureStatus = status;
  }
  if (options.currencies !== undefined) settings.acceptedCurrencies = currenciesOption(options.currencies);
  if (options.brands !== undefined) settings.acceptedBrands = brandsOption(options.brands);
  if (options.credits !== undefined) {
    if (options.credits !== 'allowed' && options.credits !== 'refused')
      throw new Error('--credits must be allowed or refused');
    settings.creditsAllowed = options.credits === 'allowed';
  }
  if (options.checkoutOrigins !== undefined) settings.checkoutOrigins = checkoutOriginsOf(options.checkoutOrigins);
  return settings;
}

/** One line per setting, lists comma-separated, `all` for no restriction and `none` for an empty list. */
export function describeSettings(settings: AccountSettings): string[] {
  return Object.entries(settings).map(([name, value]) => `${name.padEnd(26)} ${describeValue(value)}`);
}

function describeValue(value: unknown): string {
  if (value === null) return 'all';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  return String(value);
}

/** `--currencies`: comma-separated ISO 4217 codes (any case), or `all` (null). */
export const currenciesOption = (text: string): string[] | null => listOrAll(text, currencyOf);

/** `--brands`: comma-separated card brands (any case), or `all` (null). */
export const brandsOption = (text: string): CardBrand[] | null => listOrAll(text, brandOf);

function listOrAll<T>(text: string, parse: (item: string) => T): T[] | null {
  return text.trim().toLowerCase() === 'all' ? null : listOf(text, parse, 'all');
}

/** The distinct items of a comma-separated list; `otherwise` names the word that stands for no list. */
function listOf<T>(text: string, parse: (item: string) => T, otherwise: string): T[] {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new Error(`give a comma-separated list, or ${otherwise}`);
  return [...new Set(items.map(parse))];
}

function currencyOf(item: string): string {
  const code = item.toUpperCase();
  if (!currencyCodes.code(code)) throw new Error(`--currencies: ${item} is not an ISO 4217 currency code`);
  return code;
}

function brandOf(item: string): CardBrand {
  const brand = CARD_BRANDS.find((candidate) => candidate.toLowerCase() === item.toLowerCase());
  if (!brand) throw new Error(`--brands: ${item} is not one of ${CARD_BRANDS.join(', ')}`);
  return brand;
}

/** `--checkout-origins`: the merchant's sites as origins (`https://shop.example`), or `none`. */
function checkoutOriginsOf(text: string): string[] {
  if (text.trim().toLowerCase() === 'none') return [];
  return listOf(text, originOf, 'none');
}

function originOf(item: string): string {
  let url: URL | null = null;
  try {
    url = new URL(item);
  } catch {
    // Reported below.
  }
  // Only the origin itself: a path, query or fragment would be dropped silently by frame-ancestors.
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== item.replace(/\/$/, ''))
    throw new Error(`--checkout-origins: ${item} is not an origin such as https://shop.example`);
  return url.origin;
}
