// The one toast helper (CONVENTIONS "one way"). Settings of spec §9 live on the container in app.tsx.
import { toast, type ToastContent, type ToastOptions } from 'react-toastify';

export const TOAST_SETTINGS = {
  autoClose: 5000,
  // spec §9 top-right, over the top bar (issue 14): below it a toast covered the page header's actions
  // (Add, Upload, Edit, Delete) just when a save sent the user to them; the bar's bell and menu are
  // free again after 5 s or a click on the toast (styles.css).
  position: 'top-right',
  limit: 20,
  closeOnClick: true,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 60,
} as const;

export const notify = {
  success: (message: ToastContent, options?: ToastOptions) => toast.success(message, options),
  error: (message: ToastContent, options?: ToastOptions) => toast.error(message, options),
  warning: (message: ToastContent, options?: ToastOptions) => toast.warning(message, options),
  info: (message: ToastContent, options?: ToastOptions) => toast.info(message, options),
};
