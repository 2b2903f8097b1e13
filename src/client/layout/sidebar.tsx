// spec §2: permission-filtered sidebar, active entry by route-name prefix, collapsible groups,
// 250 px wide; below 769 px it starts collapsed and collapses when an item is chosen.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { routePath, type MenuEntry } from '../../shared/routes';
import { isMobileWidth, onSidebarItemChosen, toggleSidebar, ui } from '../stores/ui';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { Icon } from '../ui/icons';
import { BrandMark, BrandName } from './brand';

/** 'city.index' is active for every 'city.*' route; other names only for themselves and their children. */
export function isEntryActive(entryRoute: string | undefined, currentRoute: string): boolean {
  if (!entryRoute) return false;
  const prefix = entryRoute.endsWith('.index') ? entryRoute.slice(0, -'.index'.length) : entryRoute;
  return currentRoute === entryRoute || currentRoute === prefix || currentRoute.startsWith(`${prefix}.`);
}

const groupActive = (entry: MenuEntry, current: string) => !!entry.children?.some((child) => isEntryActive(child.route, current));

const itemClass = (active: boolean) => cx(
  'group flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
  active
    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-500/10 dark:text-indigo-300'
    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800/70 dark:hover:text-white',
  focusRing,
);

function MenuLink({ entry, current, nested }: { entry: MenuEntry; current: string; nested?: boolean }) {
  const active = isEntryActive(entry.route, current);
  return (
    <Link href={routePath(entry.route!)} onClick={onSidebarItemChosen} aria-current={active ? 'page' : undefined} className={itemClass(active)}>
      {nested
        ? <span className={cx('ml-1.5 size-1.5 rounded-full', active ? 'bg-indigo-500' : 'bg-slate-300 dark:bg-slate-600')} aria-hidden="true" />
        : <Icon name={entry.icon} className={cx('size-[18px] shrink-0', active ? 'text-indigo-600 dark:text-indigo-300' : 'text-slate-400 group-hover:text-slate-600 dark:text-slate-500 dark:group-hover:text-slate-300')} />}
      <span className="truncate">{entry.label}</span>
    </Link>
  );
}

function MenuGroup({ entry, current }: { entry: MenuEntry; current: string }) {
  const active = groupActive(entry, current);
  const [open, setOpen] = useState(active);
  useEffect(() => { if (active) setOpen(true); }, [active]);
  const id = `menu-group-${entry.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <li>
      <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={id}
        className={cx(itemClass(false), active && 'text-slate-900 dark:text-white')}>
        <Icon name={entry.icon} className="size-[18px] shrink-0 text-slate-400 dark:text-slate-500" />
        <span className="flex-1 truncate text-left">{entry.label}</span>
        <Icon name="chevron-down" className={cx('size-4 text-slate-400 transition-transform', open && 'rotate-180')} />
      </button>
      <ul id={id} hidden={!open} className="mt-1 space-y-0.5 border-l border-slate-200 pl-3 ml-5 dark:border-slate-800">
        {entry.children!.map((child) => <li key={child.route ?? child.label}><MenuLink entry={child} current={current} nested /></li>)}
      </ul>
    </li>
  );
}

export function SidebarNav({ entries, current }: { entries: MenuEntry[]; current: string }) {
  return (
    <ul className="space-y-0.5">
      {entries.map((entry) => entry.children
        ? <MenuGroup key={entry.label} entry={entry} current={current} />
        : <li key={entry.route ?? entry.label}><MenuLink entry={entry} current={current} /></li>)}
    </ul>
  );
}

/**
 * Phone: the open drawer is a dialog in all but name. Focus moves into it and stays there (Tab wraps),
 * Escape closes it, and focus returns to whatever opened it.
 */
function useDrawerFocus(isOpen: boolean) {
  const drawerRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!isOpen || !isMobileWidth()) return;
    const opener = document.activeElement as HTMLElement | null;
    const focusables = () => [...(drawerRef.current?.querySelectorAll<HTMLElement>('a[href], button:not([disabled])') ?? [])];
    focusables()[0]?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        toggleSidebar();
      } else if (event.key === 'Tab') {
        const items = focusables();
        const edge = event.shiftKey ? items[0] : items[items.length - 1];
        if (document.activeElement === edge || !drawerRef.current?.contains(document.activeElement)) {
          event.preventDefault();
          (event.shiftKey ? items[items.length - 1] : items[0])?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, [isOpen]);
  return drawerRef;
}

export function Sidebar({ entries, current, homeRoute, subtitle }: { entries: MenuEntry[]; current: string; homeRoute: string; subtitle?: string }) {
  const { sidebarCollapsed } = useSnapshot(ui);
  const drawerRef = useDrawerFocus(!sidebarCollapsed);
  return (
    <>
      {/* Phone: the open sidebar covers the page; tapping outside closes it. */}
      {!sidebarCollapsed && (
        <div className="fixed inset-0 z-30 bg-slate-950/40 backdrop-blur-[1px] min-[769px]:hidden" aria-hidden="true" onClick={toggleSidebar} />
      )}
      {/* Phone: a fixed drawer. Desktop: a column as tall as the page, its content sticky to the viewport. */}
      <aside
        ref={drawerRef}
        id="sidebar"
        data-collapsed={sidebarCollapsed ? 'true' : 'false'}
        aria-label="Main navigation"
        className={cx(
          'fixed inset-y-0 left-0 z-40 w-[250px] shrink-0 border-r border-slate-200 bg-white transition-transform duration-200 motion-reduce:transition-none dark:border-slate-800 dark:bg-slate-900',
          'min-[769px]:relative min-[769px]:z-auto min-[769px]:transition-none',
          sidebarCollapsed ? '-translate-x-full invisible min-[769px]:hidden' : 'translate-x-0',
        )}
      >
        <div className="flex h-full flex-col min-[769px]:sticky min-[769px]:top-0 min-[769px]:h-screen">
          <div className="flex h-16 shrink-0 items-center gap-2.5 border-b border-slate-200 px-5 dark:border-slate-800">
            <Link href={routePath(homeRoute)} onClick={onSidebarItemChosen} className={cx('flex min-w-0 items-center gap-2.5 rounded-lg', focusRing)}>
              <BrandMark className="size-8" />
              <span className="flex min-w-0 flex-col leading-tight">
                <BrandName className="text-sm" />
                {subtitle && <span className="text-xs text-slate-500 dark:text-slate-400">{subtitle}</span>}
              </span>
            </Link>
            <button type="button" onClick={toggleSidebar} aria-label="Close sidebar"
              className={cx('ml-auto inline-flex size-8 items-center justify-center rounded-md text-slate-400 hover:bg-slate-100 hover:text-slate-700 min-[769px]:hidden dark:hover:bg-slate-800 dark:hover:text-white', focusRing)}>
              <Icon name="x" className="size-5" />
            </button>
          </div>
          <nav className="flex-1 overflow-y-auto px-3 py-4">
            <SidebarNav entries={entries} current={current} />
          </nav>
        </div>
      </aside>
    </>
  );
}
