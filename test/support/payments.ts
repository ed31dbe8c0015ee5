/** Shapes and helpers shared by the payments API tests (charges, refunds, tokens, saved cards). */
import type { ApiClient } from './api-client.ts';
import { runCli, type AccountKeys } from './service-process.ts';

export type Card = {
  id: string;
  created: number;
  objectType: 'card';
  first6: string;
  last4: string;
  fingerprint: string;
  expMonth: string;
  expYear: string;
  cardholderName: string | null;
  customerId: string | null;
  brand: string;
  type: string;
  country: string | null;
  issuer: string | null;
  addressZip: string | null;
  fraudCheckData: Record<string, string> | null;
  addressCountry: string | null;
  fastCredit?: { supported: boolean; updated: number };
  deleted?: true;
};

export type Refund = {
  id: string;
  created: number;
  objectType: 'refund';
  amount: number;
  currency: string;
  charge: string;
  reason: string | null;
  status: 'successful' | 'failed';
  metadata: Record<string, string>;
};

export type Charge = {
  id: string;
  created: number;
  objectType: 'charge';
  amount: number;
  currency: string;
  description: string | null;
  card: Card;
  status: 'successful' | 'failed' | 'pending';
  customerId: string | null;
  captured: boolean;
  refunded: boolean;
  refunds: Refund[];
  fraudDetails: { status: string; score: number };
  threeDSecureInfo: {
    amount: number;
    currency: string;
    enrolled: boolean;
    liabilityShift: string;
    authenticationFlow: string | null;
  } | null;
  avsCheck: { result: string } | null;
  metadata: Record<string, string>;
  failureCode?: string;
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
};

export type Customer = {
  id: string;
  objectType: 'customer';
  email: string;
  defaultCardId: string | null;
  cards: Card[];
  metadata: Record<string, string>;
};

export type Token = {
  id: string;
  created: number;
  objectType: 'token';
  first6: string;
  last4: string;
  fingerprint: string;
  expMonth: string;
  expYear: string;
  brand: string;
  type: string;
  used: boolean;
  card?: Card;
  threeDSecureInfo?: ThreeDSecureInfo;
};

export type ThreeDSecureInfo = {
  amount: number;
  currency: string;
  enrolled: boolean;
  liabilityShift: 'pending' | 'successful' | 'failed' | 'not_possible';
  authenticationFlow: 'frictionless' | 'challenge' | null;
  version?: string | null;
};

export type Page<T> = { list: T[]; hasMore: boolean };
export type PublicEvent<T = Record<string, unknown>> = {
  id: string;
  type: string;
  objectType: 'event';
  created: number;
  data: T;
  log: string;
  testClockTime?: number;
};
export type ApiError = {
  error: {
    type: string;
    code?: string;
    message: string;
    param?: string;
    chargeId?: string;
    issuerDeclineCode?: string;
  };
};

/** A year safely in the future for every test card. */
export const FUTURE_YEAR = String(new Date().getUTCFullYear() + 3);

/** Card details that pass validation: a future expiry and a CVC of the brand's length. */
export function cardDetails(number: string, extra: Record<string, string> = {}): Record<string, string> {
  return { number, expMonth: '12', expYear: FUTURE_YEAR, cvc: /^3[47]/.test(number) ? '1234' : '123', ...extra };
}

/** The same card details as form fields under `prefix` (`card[number]=…`), or at top level for ''. */
export function cardForm(prefix: string, number: string, extra: Record<string, string> = {}): Record<string, string> {
  const details = cardDetails(number, extra);
  return Object.fromEntries(
    Object.entries(details).map(([name, value]) => [prefix ? `${prefix}[${name}]` : name, value]),
  );
}

/** A second account made with the operators' CLI, once the running service accepts its key. */
export async function createOtherAccount(
  api: ApiClient,
  dataDir: string,
  name: string,
): Promise<{ keys: AccountKeys; api: ApiClient }> {
  const created = await runCli(['accounts', 'create', '--name', name, '--json'], dataDir);
  if (created.code !== 0) throw new Error(`accounts create failed: ${created.stderr}`);
  const keys = JSON.parse(created.stdout) as AccountKeys;
  const other = api.withKey(keys.testSecretKey);
  // The account is created by another process; the service sees it once projected.
  for (let i = 0; i < 100; i++) {
    if ((await other.get('/customers')).status === 200) return { keys, api: other };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the new account key never became usable');
}

/** Public events of one object, newest first (pages through the whole event list). */
export async function eventsOf<T = Record<string, unknown>>(
  api: ApiClient,
  objectId: string,
): Promise<PublicEvent<T>[]> {
  const found: PublicEvent<T>[] = [];
  let startingAfterId: string | undefined;
  for (;;) {
    const query: Record<string, string> = { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) };
    const page = (await api.get<Page<PublicEvent<T>>>('/events', { query })).body;
    found.push(...page.list.filter((event) => (event.data as { id?: string }).id === objectId));
    if (!page.hasMore || page.list.length === 0) return found;
    startingAfterId = page.list[page.list.length - 1]!.id;
  }
}
