// A board card's moves as a menu, beside dragging it: the way to move a card by keyboard or on a phone
// (the candidate board and the deal board).
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { focusRing } from './button';
import { cx } from './cx';
import { Icon } from './icons';

export interface Move {
  key: string;
  label: string;
  /** A move that ends something (reject, lost): shown in red. */
  isDanger?: boolean;
  onSelect: () => void;
}

export function MoveMenu({ title, moves, className, align = 'start' }: { title: string; moves: readonly Move[]; className?: string; align?: 'start' | 'end' }) {
  if (!moves.length) return null;
  return (
    <Menu as="div" className={cx('relative', className)}>
      <MenuButton aria-label={`Move ${title}`}
        className={cx('inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs font-medium text-indigo-700 ring-1 ring-indigo-300 ring-inset hover:bg-indigo-50 dark:text-indigo-300 dark:ring-indigo-500/40 dark:hover:bg-indigo-500/10', focusRing)}>
        Move<Icon name="chevron-down" className="size-3.5" />
      </MenuButton>
      <MenuItems anchor={{ to: `bottom ${align}`, gap: 6 }}
        className="z-50 min-w-48 rounded-xl border border-slate-200 bg-white p-1 shadow-lg focus:outline-none dark:border-slate-800 dark:bg-slate-900">
        {moves.map((move) => (
          <MenuItem key={move.key}>
            <button type="button" onClick={move.onSelect}
              className={cx('flex w-full items-center rounded-md px-3 py-2 text-left text-sm data-focus:bg-slate-100 dark:data-focus:bg-slate-800',
                move.isDanger ? 'text-rose-700 dark:text-rose-300' : 'text-slate-900 dark:text-white')}>
              {move.label}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
