// The one toast helper (CONVENTIONS "one way"). Settings of spec §9 live on the container in app.tsx.
// react-toastify (about 10 KB gzip with its styles) is fetched with the first toast, not with the login
// screen (issue 23, docs/benchmarks.md "PWA"): a toast raised before it arrives is shown as soon as it has.
import { proxy } from 'valtio';
import type { ToastContent, ToastOptions } from 'react-toastify';

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

type Toastify = typeof import('react-toastify');
let toastify: Toastify | null = null;
let loading: Promise<Toastify> | null = null;

/** Whether the toast library has arrived: app.tsx mounts the container then. */
export const toasts = proxy({ isLoaded: false });

export function loadToasts(): Promise<Toastify> {
  loading ??= import('react-toastify').then((module) => {
    toastify = module;
    toasts.isLoaded = true;
    return module;
  });
  return loading;
}

type Kind = 'success' | 'error' | 'warning' | 'info';
const show = (kind: Kind) => (message: ToastContent, options?: ToastOptions) => {
  if (toastify) { toastify.toast[kind](message, options); return; }
  void loadToasts().then((module) => module.toast[kind](message, options));
};

export const notify = { success: show('success'), error: show('error'), warning: show('warning'), info: show('info') };
