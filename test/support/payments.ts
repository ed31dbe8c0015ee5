/** Shapes and helpers shared by the payments API tests (charges, refunds, tokens, saved cards). */
import type { CardObject } from '../../projections/views/card-object.ts';
import type { ChargeObject } from '../../projections/views/charge-view.ts';
import type { ApiClient } from './api-client.ts';
import { runCli, type AccountKeys } from './service-process.ts';

/** The objects as the API renders them: the views' own types. */
export type { CardObject as Card } from '../../projections/views/card-object.ts';
export type { RefundObject as Refund } from '../../projections/views/refund-view.ts';
export type { CustomerObject as Customer } from '../../projections/views/customer-view.ts';
export type { TokenObject as Token } from '../../projections/views/token-view.ts';
export type { ThreeDSecureInfo } from '../../packages/network/card-network.ts';

/** A card charge, the kind these tests make: its `card` is always there. */
export type Charge = ChargeObject & { card: CardObject };

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
