// The one pagination control (spec §9), driven by the server's Laravel-style `meta.links`.
import { GAP_LABEL, pageFromLink, pageSummary, paginationView, type PageLink, type PageMeta } from '../../shared/pagination';
import { focusRing } from './button';
import { cx } from './cx';
import { Icon } from './icons';

const decodeLabel = (label: string) =>
  label.replace(/&laquo;/g, '«').replace(/&raquo;/g, '»').replace(/&amp;/g, '&').trim();

const isPrevious = (link: PageLink, index: number) => index === 0 && /previous|&laquo;|«/i.test(link.label);
const isNext = (link: PageLink, index: number, count: number) => index === count - 1 && /next|&raquo;|»/i.test(link.label);

export interface PaginationProps {
  meta: Pick<PageMeta, 'links' | 'current_page' | 'last_page' | 'total'>;
  onPage: (page: number) => void;
  className?: string;
}

export function Pagination({ meta, onPage, className }: PaginationProps) {
  const view = paginationView(meta.links);
  if (view === 'hidden') return null;
  const links = view === 'previous-next' ? [meta.links[0], meta.links[meta.links.length - 1]] : meta.links;

  return (
    <nav aria-label="Pagination" className={cx('flex flex-col items-center justify-between gap-3 sm:flex-row', className)}>
      <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">{pageSummary(meta)}</p>
      <ul className="flex flex-wrap items-center gap-1">
        {links.map((link, index) => {
          const page = pageFromLink(link);
          const previous = view === 'previous-next' ? index === 0 : isPrevious(link, index);
          const next = view === 'previous-next' ? index === 1 : isNext(link, index, links.length);
          const edge = previous || next;
          const label = previous ? 'Previous' : next ? 'Next' : decodeLabel(link.label);
          const disabled = page === null || link.active;
          if (!edge && link.label === GAP_LABEL) {
            // Pages left out of the window: a mark, not a button.
            return <li key={`${index}-gap`} aria-hidden="true" className="hidden px-1 text-sm text-slate-400 sm:block dark:text-slate-500">…</li>;
          }
          return (
            <li key={`${index}-${link.label}`} className={cx(!edge && !link.active && 'hidden sm:block')}>
              {/* aria-disabled rather than disabled: a button that becomes unusable under the keyboard
                  (Next on reaching the last page) keeps focus instead of dropping it to the page. */}
              <button
                type="button"
                aria-disabled={disabled || undefined}
                aria-current={link.active ? 'page' : undefined}
                aria-label={edge ? `${label} page` : `Page ${label}`}
                onClick={() => { if (!disabled && page !== null) onPage(page); }}
                className={cx(
                  'inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-md px-2.5 text-sm font-medium transition-colors',
                  link.active
                    ? 'bg-indigo-600 text-white dark:bg-indigo-500'
                    : 'text-slate-700 ring-1 ring-inset ring-slate-200 hover:bg-slate-50 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-800',
                  page === null && !link.active && 'cursor-not-allowed opacity-40 hover:bg-transparent dark:hover:bg-transparent',
                  focusRing,
                )}
              >
                {previous && <Icon name="chevron-left" className="size-4" />}
                <span>{label}</span>
                {next && <Icon name="chevron-right" className="size-4" />}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
