// The dirty guard (decision 013-one-form-engine): a changed form asks "Discard your changes?" before Escape,
// the close button, Cancel, an in-app link or the back button throws it away; a reload gets the browser's own
// `beforeunload` question. A dialog (ui/modal) asks the guard of the form inside it before it closes.
import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { navigate } from './navigation';

/** What a dialog gives the forms inside it: they say whether they hold changes. */
export interface DirtyRegistry { setDirty: (id: string, isDirty: boolean) => void }
export const DirtyRegistryContext = createContext<DirtyRegistry | null>(null);

/** For a dialog: which forms inside it hold changes. */
export function useDirtyRegistry() {
  const dirty = useRef(new Set<string>());
  const registry: DirtyRegistry = useRef<DirtyRegistry>({
    setDirty: (id, isDirty) => { if (isDirty) dirty.current.add(id); else dirty.current.delete(id); },
  }).current;
  return { registry, isDirty: () => dirty.current.size > 0 };
}

/** The question, with both choices named plainly. */
export function DiscardDialog({ open, onKeep, onDiscard }: { open: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <ConfirmDialog open={open} title="Discard your changes?" message="What you changed in this form has not been saved."
      cancelLabel="Keep editing" confirmLabel="Discard" onClose={onKeep} onConfirm={onDiscard} />
  );
}

/** Asks before `action` when `isDirty()`; renders the question where `prompt` is placed. */
export function useDiscardQuestion(isDirty: () => boolean) {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const confirm = useCallback((action: () => void) => {
    if (isDirty()) setPending(() => action); else action();
  }, [isDirty]);
  const prompt: ReactNode = (
    <DiscardDialog open={pending !== null} onKeep={() => setPending(null)}
      onDiscard={() => { const action = pending; setPending(null); action?.(); }} />
  );
  return { confirm, prompt, isAsking: pending !== null };
}

const sameOriginLink = (event: MouseEvent): string | null => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const target = new URL(link.href, window.location.href);
  if (target.origin !== window.location.origin) return null;
  const to = `${target.pathname}${target.search}${target.hash}`;
  return to === `${window.location.pathname}${window.location.search}${window.location.hash}` ? null : to;
};

/**
 * For a form: while `isDirty`, in-app links and the back button ask first, a reload gets `beforeunload`, and
 * the dialog around the form (if any) asks before it closes. `confirm(action)` asks before the form's own
 * Cancel. Render `prompt`.
 */
export function useDirtyGuard(isDirty: boolean) {
  const id = useId();
  const registry = useContext(DirtyRegistryContext);
  const dirty = useRef(isDirty);
  dirty.current = isDirty;
  const question = useDiscardQuestion(useCallback(() => dirty.current, []));
  const { confirm } = question;

  useEffect(() => {
    registry?.setDirty(id, isDirty);
    return () => registry?.setDirty(id, false);
  }, [registry, id, isDirty]);

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => { event.preventDefault(); event.returnValue = ''; };
    // Capture on the document: before React (and wouter's Link) sees the click.
    const onClick = (event: MouseEvent) => {
      const to = sameOriginLink(event);
      if (!to) return;
      event.preventDefault();
      event.stopPropagation();
      confirm(() => { dirty.current = false; navigate(to); });
    };
    // Back/forward cannot be cancelled: put the page back, stop wouter from hearing it, and ask.
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    const onPopState = (event: PopStateEvent) => {
      if (!dirty.current) return;
      event.stopImmediatePropagation();
      const wanted = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      window.history.pushState(window.history.state, '', here);
      confirm(() => { dirty.current = false; navigate(wanted); });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState, true);
    };
  }, [isDirty, confirm]);

  return question;
}
