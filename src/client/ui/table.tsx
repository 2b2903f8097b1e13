// The list table of the resource screens. One DOM for every width: from md up a table with
// sortable headers (aria-sort); below md each row becomes a stacked card whose cells carry their
// column label (data-label), so a 390 px phone reads "Country  India" instead of a sideways scroll.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { focusRing } from './button';
import { cx } from './cx';
import { Icon } from './icons';
import { Skeleton } from './loading';

export type SortDirection = 'asc' | 'desc';
export interface SortState { key: string; direction: SortDirection }

export interface TableColumn<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  isSortable?: boolean;
  /** The row's title: the card heading on phones, no label there. */
  isPrimary?: boolean;
  /** Numbers align right from md up. */
  align?: 'left' | 'right';
}

export interface DataTableProps<Row> {
  caption: string;
  columns: TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  sort?: SortState;
  onSort?: (key: string) => void;
  /** Row actions (view / edit / delete), the last column. */
  actions?: (row: Row) => ReactNode;
  /** A refetch is under way: the current rows stay, dimmed. */
  isBusy?: boolean;
  /** Tick boxes before the rows (bulk actions); the header box selects the page. */
  selection?: TableSelection<Row>;
  /**
   * Where the actions sit on phones: `corner` (icons, top right of the card) or `footer` (a line of
   * their own under the cells: room for labelled buttons such as Approve / Reject).
   */
  actionsPlacement?: 'corner' | 'footer';
  /** The row a link pointed at (`?highlight=<id>`): tinted and marked `aria-current`. */
  highlightedKey?: string | number | null;
}

export interface TableSelection<Row> {
  isSelected: (row: Row) => boolean;
  onToggle: (row: Row) => void;
  /** Ticks or clears every row of the page. */
  onToggleAll: () => void;
  /** The row as a screen reader should hear it: "Select <label>". */
  label: (row: Row) => string;
  /** Rows that cannot be selected (nothing to do on them). */
  isSelectable?: (row: Row) => boolean;
}

// Sticky cells (the tick box and the title stay while a wide table scrolls) need an opaque background.
const stickyHeader = 'bg-slate-50 dark:bg-[color-mix(in_oklab,var(--color-slate-800)_40%,var(--color-slate-900))]';
const stickyCell = 'md:group-hover:bg-slate-50 dark:md:group-hover:bg-slate-800/40';
const plainBackground = 'md:bg-white dark:md:bg-slate-900';
const selectedBackground = 'bg-[color-mix(in_oklab,var(--color-indigo-50)_70%,white)] dark:bg-[color-mix(in_oklab,var(--color-indigo-500)_10%,var(--color-slate-900))]';
// Opaque too, so the sticky cells keep the tint while the table scrolls sideways.
const highlightedBackground = 'bg-amber-50 md:hover:bg-amber-50 dark:bg-[color-mix(in_oklab,var(--color-amber-400)_12%,var(--color-slate-900))] dark:md:hover:bg-[color-mix(in_oklab,var(--color-amber-400)_12%,var(--color-slate-900))]';

// A wide table's sticky title and actions throw a soft shadow on the side where columns pass beneath
// them, so a status half hidden under the actions reads as scrolled, not cut (issue 24's sticky cells).
// (A box-shadow on a table cell is not painted with collapsed borders: a gradient strip beside the cell instead.)
const edge = "md:before:pointer-events-none md:before:absolute md:before:inset-y-0 md:before:w-2 md:before:to-transparent md:before:content-[''] md:before:from-slate-900/10 dark:md:before:from-black/50";
const startEdge = `${edge} md:before:left-full md:before:bg-linear-to-r`;
const endEdge = `${edge} md:before:right-full md:before:bg-linear-to-l`;
/** The same shadow on the scroller's own edge, for a table without a sticky title or actions. */
const scrollerFade = 'pointer-events-none absolute inset-y-0 z-[2] w-3 from-slate-900/10 to-transparent max-md:hidden dark:from-black/50';

/** Whether columns are scrolled out of view at the start (left) and the end (right) of the scroller. */
function useHiddenSides() {
  const ref = useRef<HTMLDivElement>(null);
  const [sides, setSides] = useState({ start: false, end: false });
  useEffect(() => {
    const scroller = ref.current;
    if (!scroller) return;
    const measure = () => {
      const start = scroller.scrollLeft > 0;
      // A pixel of slack: zoomed widths are fractional.
      const end = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
      setSides((current) => (current.start === start && current.end === end ? current : { start, end }));
    };
    measure();
    scroller.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    // The scroller for the window's width, the table for its rows (a new page, a refetch).
    observer?.observe(scroller);
    const table = scroller.querySelector('table');
    if (table) observer?.observe(table);
    return () => { scroller.removeEventListener('scroll', measure); observer?.disconnect(); };
  }, []);
  return { ref, sides };
}

const checkboxClass = cx('size-4 rounded border-slate-300 accent-indigo-600 dark:border-slate-600', focusRing);

function SelectAll<Row>({ rows, selection }: { rows: readonly Row[]; selection: TableSelection<Row> }) {
  const selectable = rows.filter((row) => selection.isSelectable?.(row) ?? true);
  const count = selectable.filter(selection.isSelected).length;
  return (
    <input type="checkbox" aria-label="Select all on this page" className={checkboxClass} disabled={!selectable.length}
      checked={count > 0 && count === selectable.length}
      ref={(element) => { if (element) element.indeterminate = count > 0 && count < selectable.length; }}
      onChange={selection.onToggleAll} />
  );
}

export const ariaSort = (key: string, sort?: SortState): 'ascending' | 'descending' | 'none' =>
  sort?.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';

const cellLabel = 'max-md:before:shrink-0 max-md:before:text-xs max-md:before:font-medium max-md:before:text-slate-500 max-md:before:content-[attr(data-label)] dark:max-md:before:text-slate-400';

export function DataTable<Row>({ caption, columns, rows, rowKey, sort, onSort, actions, isBusy, selection, actionsPlacement = 'corner', highlightedKey }: DataTableProps<Row>) {
  const isCornerActions = !!actions && actionsPlacement === 'corner';
  const isHighlighted = (row: Row) => highlightedKey != null && String(rowKey(row)) === String(highlightedKey);
  const cellBackground = (row: Row) => (selection?.isSelected(row) ? selectedBackground : isHighlighted(row) ? highlightedBackground : plainBackground);
  const { ref, sides } = useHiddenSides();
  const primaryEdge = sides.start && startEdge;
  const actionsEdge = sides.end && endEdge;
  const hasPrimary = columns.some((column) => column.isPrimary);
  const isScrolling = sides.start || sides.end;
  return (
    // The page never scrolls sideways (the header, the filters and the pagination stay put): a table wider
    // than its card scrolls inside it. The sticky title and actions say so with their edges; without them,
    // the scroller's own edge fades. A keyboard scrolls it too: it takes focus while it scrolls (WCAG 2.1.1).
    <div className="relative">
      {sides.start && !hasPrimary && <div aria-hidden="true" data-edge="start" className={cx(scrollerFade, 'left-0 bg-linear-to-r')} />}
      {sides.end && !actions && <div aria-hidden="true" data-edge="end" className={cx(scrollerFade, 'right-0 bg-linear-to-l')} />}
      {/* relative: the screen-reader-only texts of the headers (absolute) stay inside the scroller, not past the page's right edge. */}
      <div ref={ref} className={cx('relative md:overflow-x-auto', isScrolling && cx(focusRing, 'focus-visible:outline-offset-[-2px]'), isBusy && 'opacity-60 transition-opacity')} aria-busy={isBusy || undefined}
        tabIndex={isScrolling ? 0 : undefined} role={isScrolling ? 'region' : undefined} aria-label={isScrolling ? `${caption}: scroll sideways for more columns` : undefined}>
        {selection && rows.length > 0 && (
          // Phones have no header row: the page's tick box gets a line of its own.
          <label className="flex items-center gap-3 border-b border-slate-200 px-4 py-2.5 text-sm text-slate-600 md:hidden dark:border-slate-800 dark:text-slate-300">
            <SelectAll rows={rows} selection={selection} /><span aria-hidden="true">Select all on this page</span>
          </label>
        )}
        <table role="table" className="w-full text-left text-sm max-md:block">
          <caption className="sr-only">{caption}</caption>
          <thead role="rowgroup" className="border-b border-slate-200 bg-slate-50/80 max-md:hidden dark:border-slate-800 dark:bg-slate-800/40">
            <tr role="row">
              {selection && (
                <th role="columnheader" scope="col" className={cx('sticky left-0 z-[1] w-10 py-3 pr-0 pl-4', stickyHeader)}>
                  <SelectAll rows={rows} selection={selection} />
                </th>
              )}
              {columns.map((column) => {
                const active = sort?.key === column.key;
                return (
                  <th key={column.key} role="columnheader" scope="col" aria-sort={column.isSortable ? ariaSort(column.key, sort) : undefined}
                    className={cx('px-4 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase dark:text-slate-300',
                      column.align === 'right' && 'text-right', column.isPrimary && cx('sticky z-[1] min-w-36', selection ? 'left-10' : 'left-0', stickyHeader, primaryEdge))}>
                    {column.isSortable && onSort ? (
                      <button type="button" onClick={() => onSort(column.key)}
                        className={cx('-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-slate-900 dark:hover:text-white', focusRing,
                          active && 'text-slate-900 dark:text-white')}>
                        {column.header}
                        <Icon name={active ? (sort!.direction === 'asc' ? 'arrow-up' : 'arrow-down') : 'chevrons-up-down'}
                          className={cx('size-3.5', !active && 'opacity-40')} />
                        <span className="sr-only">{active ? `, sorted ${sort!.direction === 'asc' ? 'ascending' : 'descending'}` : ', sortable'}</span>
                      </button>
                    ) : column.header}
                  </th>
                );
              })}
              {/* Issue 24: the actions stay in view at the right edge while a wide table scrolls (the checklist's Mark done at 1440 px). */}
              {actions && <th role="columnheader" scope="col" className={cx('z-[1] px-4 py-3 text-right text-xs font-semibold tracking-wide text-slate-600 uppercase md:sticky md:right-0 dark:text-slate-300', stickyHeader, actionsEdge)}><span className="sr-only">Actions</span></th>}
            </tr>
          </thead>
          <tbody role="rowgroup" className="divide-y divide-slate-200 max-md:block dark:divide-slate-800">
            {rows.map((row) => (
              <tr key={rowKey(row)} role="row" aria-selected={selection ? selection.isSelected(row) : undefined}
                data-row-key={rowKey(row)} data-highlighted={isHighlighted(row) || undefined} aria-current={isHighlighted(row) || undefined}
                className={cx('group relative transition-colors max-md:block max-md:space-y-1.5 max-md:px-4 max-md:py-3.5 md:hover:bg-slate-50 dark:md:hover:bg-slate-800/40',
                  selection && 'max-md:pl-11', isHighlighted(row) && highlightedBackground, selection?.isSelected(row) && selectedBackground)}>
                {selection && (
                  <td role="cell" className={cx('max-md:absolute max-md:top-[1.2rem] max-md:left-4 md:sticky md:left-0 md:z-[1] md:w-10 md:py-3 md:pr-0 md:pl-4', stickyCell, cellBackground(row))}>
                    {(selection.isSelectable?.(row) ?? true) && (
                      <input type="checkbox" aria-label={`Select ${selection.label(row)}`} className={checkboxClass}
                        checked={selection.isSelected(row)} onChange={() => selection.onToggle(row)} />
                    )}
                  </td>
                )}
                {columns.map((column) => (
                  <td key={column.key} role="cell" data-label={column.isPrimary ? undefined : column.header}
                    className={cx('text-slate-700 md:px-4 md:py-3 dark:text-slate-300',
                      // A long word (an email address) breaks on a phone rather than widen the card past the screen.
                      'max-md:min-h-6 max-md:wrap-anywhere',
                      // A card reads from the left: its title is a heading over the card (a block, left-aligned, however
                      // many lines it wraps to); the other cells are label / value pairs, the value at the right edge.
                      column.isPrimary
                        ? 'font-medium text-slate-900 max-md:mb-2 max-md:block max-md:text-left max-md:text-base' + (isCornerActions ? ' max-md:pr-28' : '') + (selection ? ' md:left-10' : ' md:left-0') + ' md:sticky md:z-[1] dark:text-white ' + stickyCell + ' ' + cellBackground(row) + (primaryEdge ? ' ' + primaryEdge : '')
                        : cx('max-md:flex max-md:items-baseline max-md:justify-between max-md:gap-4 max-md:text-right', cellLabel),
                      column.align === 'right' && 'md:text-right md:tabular-nums')}>
                    {column.render(row)}
                  </td>
                ))}
                {actions && (
                  <td role="cell" className={cx('whitespace-nowrap md:sticky md:right-0 md:z-[1] md:px-4 md:py-2 md:text-right', stickyCell, cellBackground(row), actionsEdge,
                    isCornerActions ? 'max-md:absolute max-md:top-2.5 max-md:right-3' : 'max-md:flex max-md:justify-end max-md:pt-2')}>
                    <div className="inline-flex flex-wrap items-center justify-end gap-1 md:flex-nowrap">{actions(row)}</div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The table's loading state: header-shaped skeleton rows. */
export function TableSkeleton({ rows = 6, columns = 4 }: { rows?: number; columns?: number }) {
  return (
    <div role="status" aria-label="Loading" className="divide-y divide-slate-200 dark:divide-slate-800">
      <div className="hidden gap-6 bg-slate-50/80 px-4 py-3.5 md:flex dark:bg-slate-800/40">
        {Array.from({ length: columns }, (_, i) => <Skeleton key={i} className="h-3 flex-1" />)}
      </div>
      {Array.from({ length: rows }, (_, r) => (
        <div key={r} className="flex flex-col gap-2 px-4 py-4 md:flex-row md:items-center md:gap-6">
          {Array.from({ length: columns }, (_, i) => <Skeleton key={i} className={cx('h-3.5 md:flex-1', i === 0 ? 'w-1/2' : 'w-3/4 max-md:hidden')} />)}
        </div>
      ))}
    </div>
  );
}
