import "server-only";

export type Page<T> = { page: number; pageCount: number; items: T[] };

// A misbehaving page_count must not turn a list into an endless loop.
const MAX_PAGES = 100_000;

/**
 * Walks page=1.. until page >= page_count or a page comes back empty, yielding each page. The
 * callers get whole pages so they can work set-based (one query per page, not per item).
 */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; pageCount: number }>,
): AsyncGenerator<Page<T>, void, undefined> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, pageCount } = await fetchPage(page);
    if (items.length === 0) return;
    yield { page, pageCount, items };
    if (page >= pageCount) return;
  }
}

/** Flattens an iterator of pages into one array (for short lists such as webhooks). */
export async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page.items);
  return all;
}
