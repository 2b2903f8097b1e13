// The one toast helper (CONVENTIONS "one way"). Settings of spec §9 live on the container in app.tsx.
import { toast, type ToastContent, type ToastOptions } from 'react-toastify';

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

export const notify = {
  success: (message: ToastContent, options?: ToastOptions) => toast.success(message, options),
  error: (message: ToastContent, options?: ToastOptions) => toast.error(message, options),
  warning: (message: ToastContent, options?: ToastOptions) => toast.warning(message, options),
  info: (message: ToastContent, options?: ToastOptions) => toast.info(message, options),
};
