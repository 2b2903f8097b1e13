// After a decision or a payment the button that opened its dialog is often gone (the new state offers
// others), so the dialog has nowhere to give focus back and it fell to the page (decision 059). The
// element that now reads the new state takes it instead.
import { useEffect, useRef } from 'react';

/**
 * Focuses the returned ref's element each time `version` moves past 0: after the dialog's own focus
 * restore, which runs once it has unmounted (hence the timeout).
 */
export function useFocusAfterChange<T extends HTMLElement>(version: number) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (version === 0) return undefined;
    const timer = setTimeout(() => ref.current?.focus());
    return () => clearTimeout(timer);
  }, [version]);
  return ref;
}
