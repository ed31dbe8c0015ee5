import type { Tenant } from '../../packages/domain/tenant.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import { subscriptionsCollection } from '../../projections/subscriptions-projection.ts';

/** Ids of every subscription whose customer lives on the test clock, oldest first. */
export async function subscriptionsOnClock(
  readModels: ReadModels,
  tenant: Tenant,
  testClockId: string,
): Promise<string[]> {
  const ids: string[] = [];
  let startingAfterId: string | undefined;
  for (;;) {
    const page = await readModels.collection(subscriptionsCollection).list({
      filter: { _accountId: tenant.accountId, _mode: tenant.mode, _testClockId: testClockId },
      limit: 100,
      ...(startingAfterId ? { startingAfterId } : {}),
    });
    ids.push(...page.list.map((doc) => doc.id));
    const last = page.list[page.list.length - 1];
    if (!page.hasMore || !last) return ids.reverse();
    startingAfterId = last.id;
  }
}
