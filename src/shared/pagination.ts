// spec §9 pagination rules and the Laravel-style `meta` the server returns (ARCHITECTURE "Lists").

export interface PageLink { url: string | null; label: string; active: boolean }
export interface PageMeta { current_page: number; last_page: number; per_page: number; total: number; links: PageLink[] }

export const PREVIOUS_LABEL = '&laquo; Previous';
export const NEXT_LABEL = 'Next &raquo;';

/** Laravel's paginator links: previous, every page, next. `url(page)` builds each link. */
export function buildPageMeta(page: number, perPage: number, total: number, url: (page: number) => string): PageMeta {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links: PageLink[] = [{ url: page > 1 ? url(page - 1) : null, label: PREVIOUS_LABEL, active: false }];
  for (let p = 1; p <= lastPage; p++) links.push({ url: url(p), label: String(p), active: p === page });
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
