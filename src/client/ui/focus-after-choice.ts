// A choice made with the pointer in a Headless UI Combobox focuses its input again on the next
// animation frame (desktop only), whatever has focus by then. On a busy page that frame can come after
// the person has already clicked or tabbed into the next field: what they type then lands in the
// picker, and the field they meant stays empty (seen as "The hours field is required." on an upload
// form sent right after picking its client). The field they moved to keeps its focus here.
import { useRef } from 'react';

/**
 * Wraps a combobox's `onChange`. From a choice until two frames later (Headless UI's refocus frame is
 * one of them), focus that comes back to the picker's own input from another field is handed straight
 * back to that field. `pickerRef` is the element around the input and its buttons: moves inside it are
 * the picker's own.
 */
export function useFocusAfterChoice<T>(onChange: (value: T) => void) {
  const pickerRef = useRef<HTMLDivElement>(null);
  const watching = useRef<() => void>(undefined);
  const chosen = (value: T) => {
    onChange(value);
    const picker = pickerRef.current;
    if (!picker) return;
    watching.current?.();
    let movedTo: HTMLElement | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target as HTMLElement;
      if (!picker.contains(target)) { movedTo = target; return; }
      if (target instanceof HTMLInputElement && movedTo?.isConnected) movedTo.focus({ preventScroll: true });
    };
    const stop = () => { document.removeEventListener('focusin', onFocusIn, true); if (watching.current === stop) watching.current = undefined; };
    watching.current = stop;
    document.addEventListener('focusin', onFocusIn, true);
    requestAnimationFrame(() => requestAnimationFrame(stop));
  };
  return { pickerRef, chosen };
}
