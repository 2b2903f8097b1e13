// spec §9 pagination rules and the Laravel-style `meta` the server returns (ARCHITECTURE "Lists").

export interface PageLink { url: string | null; label: string; active: boolean }
export interface PageMeta { current_page: number; last_page: number; per_page: number; total: number; links: PageLink[] }

export const PREVIOUS_LABEL = '&laquo; Previous';
export const NEXT_LABEL = 'Next &raquo;';

export const GAP_LABEL = '...';
/** Pages shown on each side of the current one (Laravel's `onEachSide`). */
const ON_EACH_SIDE = 3;

/**
 * The page numbers Laravel's paginator links to (its UrlWindow): every page while there are fewer
 * than 14; otherwise the first two, a window around the current page, the last two, with `null`
 * where pages are left out. A list of 100,000 rows has a few links, not thousands.
 */
export function pageWindow(page: number, lastPage: number): (number | null)[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  const start = [1, 2];
  const finish = [lastPage - 1, lastPage];
  if (page <= window) return [...range(1, window + ON_EACH_SIDE), null, ...finish];
  if (page > lastPage - window) return [...start, null, ...range(lastPage - (window + ON_EACH_SIDE - 1), lastPage)];
  return [...start, null, ...range(page - ON_EACH_SIDE, page + ON_EACH_SIDE), null, ...finish];
}

/** Laravel's paginator links: previous, the window of pages ('...' for a gap), next. `url(page)` builds each link. */
export function buildPageMeta(page: number, perPage: number, total: number, url: (page: number) => string): PageMeta {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links: PageLink[] = [{ url: page > 1 ? url(page - 1) : null, label: PREVIOUS_LABEL, active: false }];
  for (const p of pageWindow(page, lastPage)) {
    links.push(p === null ? { url: null, label: GAP_LABEL, active: false } : { url: url(p), label: String(p), active: p === page });
  }
  links.push({ url: page < lastPage ? url(page + 1) : null, label: NEXT_LABEL, active: false });
  return { current_page: page, last_page: lastPage, per_page: perPage, total, links };
}

/** spec §9: the control appears only when links has more than 3 entries; with 4 only previous and next. */
export function paginationView(links: readonly PageLink[]): 'hidden' | 'previous-next' | 'full' {
  if (links.length <= 3) return 'hidden';
  if (links.length === 4) return 'previous-next';
  return 'full';
}

/** spec §9: a click emits the page number taken from the link url's `page` query parameter. */
export function pageFromLink(link: PageLink): number | null {
  if (!link.url) return null;
  const value = new URL(link.url, 'http://x').searchParams.get('page');
  const page = value ? Number(value) : NaN;
  return Number.isInteger(page) && page > 0 ? page : null;
}

/** 'Page X of Y (total)' */
export function pageSummary(meta: Pick<PageMeta, 'current_page' | 'last_page' | 'total'>): string {
  return `Page ${meta.current_page} of ${meta.last_page} (${meta.total})`;
}
