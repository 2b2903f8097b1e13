// A titled dialog for forms that open over a list (resources without create/edit routes: role, permission).
import type { ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { focusRing } from './button';
import { cx } from './cx';
import { Icon } from './icons';

export function Modal({ open, title, onClose, children, size = 'md' }: { open: boolean; title: string; onClose: () => void; children: ReactNode; size?: 'md' | 'lg' }) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950/40 backdrop-blur-[2px] dark:bg-black/60" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-0 sm:items-center sm:p-4">
          <DialogPanel className={cx('flex max-h-[100dvh] w-full flex-col rounded-t-xl border border-slate-200 bg-white shadow-xl sm:max-h-[90vh] sm:rounded-xl dark:border-slate-800 dark:bg-slate-900',
            size === 'lg' ? 'sm:max-w-3xl' : 'sm:max-w-lg')}>
            <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
              <DialogTitle className="text-base font-semibold text-slate-900 dark:text-white">{title}</DialogTitle>
              <button type="button" onClick={onClose} aria-label="Close" className={cx('rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 dark:hover:bg-slate-800 dark:hover:text-slate-200', focusRing)}>
                <Icon name="x" className="size-5" />
              </button>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
