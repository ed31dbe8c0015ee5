import type { Collection, Document, ListQuery } from './document-store.ts';

/**
 * Every document a list query matches, newest first, read page by page behind the cursor of each
 * page's last document. With `max`, it stops reading once it holds that many (whole pages: the
 * last page read may take it past `max`).
 */
export async function everyDocument<T extends Document>(
  collection: Collection<T>,
  query: Omit<ListQuery, 'limit' | 'startingAfterId' | 'endingBeforeId'> = {},
  options: { pageSize?: number; max?: number } = {},
): Promise<T[]> {
  const { pageSize = 100, max = Infinity } = options;
  const found: T[] = [];
  let startingAfterId: string | undefined;
  while (found.length < max) {
    const page = await collection.list({
      ...query,
      limit: pageSize,
      ...(startingAfterId !== undefined && { startingAfterId }),
    });
    found.push(...page.list);
    const last = page.list.at(-1);
    if (!page.hasMore || !last) break;
    startingAfterId = last.id;
  }
  return found;
}
