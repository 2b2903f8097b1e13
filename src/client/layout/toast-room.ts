// Where toasts go in the signed-in app (styles.css, lib/toast.ts; issue 14). One toast sits in the top
// bar's free middle, between what the bar shows at its start (sidebar toggle, brand, Beta badge) and its
// controls. The controls grow with what is shown (the offline word, the outbox, a long name), so a fixed
// offset from the right ended up over the outbox button, the very thing people click after a "not sent"
// toast: the layout measures them. Anything else (a second toast while one is in the bar, every toast
// when the bar has no free middle, every toast on a phone) goes to the bottom left of the page's content:
// just under the bar, a toast lay over the page header's own buttons (Add, Export CSV, Approve), the ones
// people click next; at the bottom right, over a card's button (a contract's Release new PO), as this
// app aligns its buttons right.
import { useEffect, type RefObject } from 'react';

/** Narrower than this (12rem), a toast's words would wrap to a column: it goes to the corner instead. */
export const NARROWEST_TOAST = 192;
/** Kept free on each side of the toast, so that it never touches a control. */
const GAP = 8;
/** react-toastify's phone width, where its toasts take the whole width of the screen. */
export const PHONE_WIDTH = 480;

/** `in-bar`: the top bar has room for a toast; `corner`: toasts go to the bottom (right on a desktop). */
export type ToastPlace = 'in-bar' | 'corner';

export function toastPlace(windowWidth: number, room: number): ToastPlace {
  return windowWidth > PHONE_WIDTH && room >= NARROWEST_TOAST ? 'in-bar' : 'corner';
}

export function useToastRoom(controlsRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const controls = controlsRef.current;
    const row = controls?.parentElement;
    if (!controls || !row || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const place = () => {
      const controlsLeft = controls.getBoundingClientRect().left;
      const start = controls.previousElementSibling?.getBoundingClientRect().right ?? row.getBoundingClientRect().left;
      const room = controlsLeft - start - 2 * GAP;
      root.style.setProperty('--top-bar-controls', `${Math.ceil(root.clientWidth - controlsLeft + GAP)}px`);
      root.style.setProperty('--top-bar-room', `${Math.floor(room)}px`);
      // Where the page's content starts (right of an open sidebar): the corner's toasts line up with it.
      root.style.setProperty('--content-start', `${Math.floor(row.getBoundingClientRect().left)}px`);
      root.dataset.toasts = toastPlace(window.innerWidth, room);
    };
    // The row follows the window and the sidebar; the controls, what they show; the row's children come
    // and go (the brand while the sidebar is closed, which moves the start without resizing anything).
    const observer = new ResizeObserver(place);
    observer.observe(row);
    observer.observe(controls);
    const children = new MutationObserver(place);
    children.observe(row, { childList: true });
    return () => {
      observer.disconnect();
      children.disconnect();
      root.style.removeProperty('--top-bar-controls');
      root.style.removeProperty('--top-bar-room');
      root.style.removeProperty('--content-start');
      delete root.dataset.toasts;
    };
  }, [controlsRef]);
}
