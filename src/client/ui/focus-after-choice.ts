// A choice made with the pointer in a Headless UI Combobox focuses its input again on the next
// animation frame (desktop only), whatever has focus by then. On a busy page that frame can come after
// the person has already clicked or tabbed into the next field: what they type then lands in the
// picker, and the field they meant stays empty (seen as "The hours field is required." on an upload
// form sent right after picking its client). The field they moved to keeps its focus here.
import { useRef } from 'react';

/**
 * Wraps a combobox's `onChange`. From a choice until two frames later (Headless UI's refocus frame is
 * one of them), focus that comes back to the picker's input from a field focused since is handed back
 * to that field, unless the person pressed on the picker again meanwhile. `pickerRef` is the element
 * around the input and its buttons.
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
      const back = movedTo;
      if (!(target instanceof HTMLInputElement) || !back) return;
      // Once this focus has been dispatched, so that the picker hears its focus and then its blur, in order.
      queueMicrotask(() => { if (document.activeElement === target && back.isConnected) back.focus({ preventScroll: true }); });
    };
    // Pressed again, the picker is where the person is: its focus stays.
    const onPress = (event: PointerEvent) => { if (picker.contains(event.target as Node)) stop(); };
    const stop = () => {
      document.removeEventListener('focusin', onFocusIn, true);
      document.removeEventListener('pointerdown', onPress, true);
      if (watching.current === stop) watching.current = undefined;
    };
    watching.current = stop;
    document.addEventListener('focusin', onFocusIn, true);
    document.addEventListener('pointerdown', onPress, true);
    requestAnimationFrame(() => requestAnimationFrame(stop));
  };
  return { pickerRef, chosen };
}
