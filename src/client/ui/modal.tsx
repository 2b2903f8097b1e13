// A titled dialog for forms that open over a list (resources without create/edit routes: role, permission).
// It opens with focus on its first field, and a changed form inside it asks before Escape, the backdrop or the
// close button throws the changes away (lib/dirty-guard).
import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { DirtyRegistryContext, useDirtyRegistry, useDiscardQuestion } from '../lib/dirty-guard';
import { focusRing } from './button';
import { cx } from './cx';
import { Icon } from './icons';

/** The first thing a person fills in: a field, not the close button in the title bar. */
export const FIRST_FIELD = '[data-field], input:not([type="hidden"]):not([type="search"]), select, textarea, [contenteditable="true"]';

export function focusFirstField(root: HTMLElement | null) {
  const first = [...(root?.querySelectorAll<HTMLElement>(FIRST_FIELD) ?? [])]
    .find((element) => !(element as HTMLInputElement).disabled && element.getAttribute('aria-hidden') !== 'true');
  first?.focus();
}

export function Modal({ open, title, onClose, children, size = 'md' }: { open: boolean; title: string; onClose: () => void; children: ReactNode; size?: 'md' | 'lg' }) {
  const { registry, isDirty } = useDirtyRegistry();
  const { confirm, prompt } = useDiscardQuestion(isDirty);
  const close = () => confirm(onClose);
  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950/40 backdrop-blur-[2px] dark:bg-black/60" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-0 sm:items-center sm:p-4">
          <DialogPanel className={cx('flex max-h-[100dvh] w-full flex-col rounded-t-xl border border-slate-200 bg-white shadow-xl sm:max-h-[90vh] sm:rounded-xl dark:border-slate-800 dark:bg-slate-900',
            size === 'lg' ? 'sm:max-w-3xl' : 'sm:max-w-lg')}>
            <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
              <DialogTitle className="text-base font-semibold text-slate-900 dark:text-white">{title}</DialogTitle>
              <button type="button" onClick={close} aria-label="Close" className={cx('rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 dark:hover:bg-slate-800 dark:hover:text-slate-200', focusRing)}>
                <Icon name="x" className="size-5" />
              </button>
            </div>
            <ModalBody>
              <DirtyRegistryContext.Provider value={registry}>{children}</DirtyRegistryContext.Provider>
            </ModalBody>
            {prompt}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}

function ModalBody({ children }: { children: ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  // After the dialog's own focus trap has placed focus (on the close button, the first focusable element).
  useEffect(() => { const frame = requestAnimationFrame(() => focusFirstField(body.current)); return () => cancelAnimationFrame(frame); }, []);
  return <div ref={body} className="min-h-0 flex-1 overflow-y-auto">{children}</div>;
}
