// The one toast helper (CONVENTIONS "one way"). Settings of spec §9 live on the containers in app.tsx.
// react-toastify (about 10 KB gzip with its styles) is fetched with the first toast, not with the login
// screen (issue 23, docs/benchmarks.md "PWA"): a toast raised before it arrives is shown as soon as it has.
import { proxy } from 'valtio';
import type { Id, ToastContent, ToastOptions } from 'react-toastify';

export const TOAST_SETTINGS = {
  autoClose: 5000,
  // spec §9 top-right, placed where it covers nothing people click next (styles.css, issue 14).
  position: 'top-right',
  limit: 20,
  closeOnClick: true,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 60,
} as const;

/**
 * Where toasts go (layout/toast-room.ts, styles.css). react-toastify's default container holds them,
 * placed by what the layout measured: in the top bar's free middle, at the bottom when that middle has
 * no room or on a phone, at the top right without a top bar (the sign-in screens). While it holds a
 * toast in the bar, the next ones go to a second container at the bottom left of the page's content:
 * stacked under the first, they hung below the bar over the page header's buttons.
 */
export const CORNER_TOASTS = 'toasts-corner';

/** The widest a toast in the bar gets (react-toastify's own width). */
export const BAR_TOAST_WIDTH = 320;
/** Room a bar toast's words do not get: its padding, icon and close button (styles.css). */
const BAR_TOAST_CHROME = 76;
/** An average character of the toast's 14 px sans-serif, a little generous. */
const CHARACTER_WIDTH = 7;

/**
 * Whether a message reads in two lines in the bar, so that the toast stays within the bar (64 px) or
 * barely past it. A longer one, or one drawn by a component (a real-time notification's title and
 * message), would hang down over the page header.
 */
export function fitsInBar(message: ToastContent, room: number): boolean {
  if (typeof message !== 'string') return false;
  const lineWidth = Math.min(BAR_TOAST_WIDTH, room) - BAR_TOAST_CHROME;
  return lineWidth > 0 && message.length * CHARACTER_WIDTH <= 2 * lineWidth;
}

export interface ToastScene {
  /** What the layout measured (`<html data-toasts>`, layout/toast-room.ts): 'in-bar', 'corner', or none without a top bar. */
  place: string | undefined;
  /** The free middle of the top bar, in px (`--top-bar-room`). */
  room: number;
  /** The default container holds a toast (in the bar, where one fits at a time). */
  isBarTaken: boolean;
  /** The corner's container is mounted (app.tsx). */
  hasCorner: boolean;
}

/**
 * Whether a new toast goes to the corner's container rather than the default one: when the default one
 * is in the bar, which holds one short toast at a time (a second one or a long one would hang below the
 * bar over the page header's buttons).
 */
export function isForCorner(message: ToastContent, { place, room, isBarTaken, hasCorner }: ToastScene): boolean {
  return hasCorner && place === 'in-bar' && (isBarTaken || !fitsInBar(message, room));
}

let hasCorner = false;
/**
 * app.tsx mounted (or removed) the corner's container. Until it has, every toast goes to the default
 * one: a toast sent to a container not yet mounted is dropped, and a screen's test renders only the default.
 */
export function setCornerMounted(isMounted: boolean) { hasCorner = isMounted; }

const currentScene = (isBarTaken: boolean): ToastScene => {
  const root = document.documentElement;
  return { place: root.dataset.toasts, room: parseFloat(root.style.getPropertyValue('--top-bar-room')) || 0, isBarTaken, hasCorner };
};

type Toastify = typeof import('react-toastify');
let toastify: Toastify | null = null;
let loading: Promise<Toastify> | null = null;
/** The toasts sent to the default container that it has not removed yet (queued ones included). */
const defaultToasts = new Set<Id>();

/** Whether the toast library has arrived: app.tsx mounts the containers then. */
export const toasts = proxy({ isLoaded: false });

export function loadToasts(): Promise<Toastify> {
  loading ??= import('react-toastify').then((module) => {
    toastify = module;
    module.toast.onChange((item) => { if (item.status === 'removed') defaultToasts.delete(item.id); });
    toasts.isLoaded = true;
    return module;
  });
  return loading;
}

type Kind = 'success' | 'error' | 'warning' | 'info';

function send(module: Toastify, kind: Kind, message: ToastContent, options: ToastOptions = {}) {
  const { toast } = module;
  const { toastId } = options;
  // A toast kept to one copy (the network error) that is already shown stays where it is.
  const isShown = toastId !== undefined && toast.isActive(toastId);
  const toCorner = isShown ? toast.isActive(toastId, CORNER_TOASTS) : isForCorner(message, currentScene(defaultToasts.size > 0));
  // Heard by screen readers: an error or a warning at once (alert), the rest when they pause (status).
  const role = kind === 'error' || kind === 'warning' ? 'alert' : 'status';
  const id = toast[kind](message, { role, ...options, ...(toCorner ? { containerId: CORNER_TOASTS } : {}) });
  if (!toCorner && !isShown) defaultToasts.add(id);
}

const show = (kind: Kind) => (message: ToastContent, options?: ToastOptions) => {
  if (toastify) { send(toastify, kind, message, options); return; }
  void loadToasts().then((module) => send(module, kind, message, options));
};

/**
 * Takes every toast away, shown or waiting for a container: at sign-out, so that the next person at a
 * shared computer does not read the last one's messages.
 */
export function clearToasts() {
  toastify?.toast.dismiss();
  defaultToasts.clear();
}

export const notify = { success: show('success'), error: show('error'), warning: show('warning'), info: show('info') };
