// spec §2 / §9: the user menu (w-48, Escape closes): Profile (with can-edit-profile), the user manual and Log Out.
import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import { Link } from 'wouter';
import { routePath } from '../../shared/routes';
import { cx } from '../ui/cx';
import { focusRing } from '../ui/button';
import { Icon } from '../ui/icons';

export const initialsOf = (name: string | undefined) =>
  (name ?? '?').split(/\s+/).filter(Boolean).slice(0, 2).map((part) => part[0]!.toUpperCase()).join('') || '?';

const itemClass = 'flex w-full items-center gap-2.5 rounded-md px-3 py-2 text-sm text-slate-700 data-focus:bg-slate-100 data-focus:text-slate-900 dark:text-slate-200 dark:data-focus:bg-slate-800 dark:data-focus:text-white';

export function ProfileMenu({ name, email, profileRoute, onLogout }: { name?: string; email?: string; profileRoute: string | null; onLogout: () => void }) {
  return (
    <Menu as="div" className="relative">
      <MenuButton className={cx('flex items-center gap-2 rounded-full p-0.5 pr-0.5 text-left sm:rounded-lg sm:pr-2', 'hover:bg-slate-100 dark:hover:bg-slate-800', focusRing)} aria-label={`${name ?? 'Account'}, user menu`}>
        {/* The initials are drawn, not written: the button's name ("Priya Engineer, user menu") holds the text it shows (WCAG 2.5.3). */}
        <span data-initials={initialsOf(name)} aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-sky-500 text-xs font-semibold text-white after:content-[attr(data-initials)]" />
        <span className="hidden max-w-[10rem] truncate text-sm font-medium text-slate-700 sm:block dark:text-slate-200">{name}</span>
        <Icon name="chevron-down" className="hidden size-4 text-slate-400 sm:block" />
      </MenuButton>
      <MenuItems
        anchor={{ to: 'bottom end', gap: 8 }}
        className="z-50 w-48 rounded-xl border border-slate-200 bg-white p-1 shadow-lg focus:outline-none dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="px-3 py-2">
          <p className="truncate text-sm font-medium text-slate-900 dark:text-white">{name}</p>
          {email && <p className="truncate text-xs text-slate-500 dark:text-slate-400">{email}</p>}
        </div>
        <MenuSeparator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
        {profileRoute && (
          <MenuItem>
            <Link href={routePath(profileRoute)} className={itemClass}>
              <Icon name="user" className="size-4 text-slate-400" /> Profile
            </Link>
          </MenuItem>
        )}
        <MenuItem>
          <Link href={routePath('user-manual')} className={itemClass}>
            <Icon name="compass" className="size-4 text-slate-400" /> User manual
          </Link>
        </MenuItem>
        <MenuItem>
          <button type="button" onClick={onLogout} className={itemClass}>
            <Icon name="logout" className="size-4 text-slate-400" /> Log Out
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
