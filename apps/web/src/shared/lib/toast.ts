import type { ToastOptions } from 'react-toastify';
import { TOAST } from '@tourdesk/contracts';

/** The spec's toast behaviour; the container (`app/Toasts.tsx`) uses these values. */
export const TOAST_CONTAINER_PROPS = {
  autoClose: TOAST.autoCloseMs,
  draggable: TOAST.draggable,
  // Bottom left: page actions sit at the top right (New…, Activate) and forms end at the bottom
  // right (Save); toasts there covered them for seconds.
  position: 'bottom-left',
  style: { maxWidth: TOAST.maxWidthPx, width: '100%' },
  newestOnTop: true,
} as const;

/**
 * react-toastify is not part of the first page load (7 kB gzip of the back office's initial
 * JavaScript): App mounts its container lazily, and these functions import it when they are called.
 * A toast shown before the container has mounted waits in react-toastify's own queue and appears
 * when the container does.
 */
const toastify = () => import('react-toastify');
type Kind = 'error' | 'success' | 'info';
const show = (kind: Kind, message: string, options?: ToastOptions) => {
  void toastify().then(({ toast }) => toast[kind](message, options));
};

export const notifyError = (message: string, options?: ToastOptions) => show('error', message, options);
export const notifySuccess = (message: string, options?: ToastOptions) => show('success', message, options);
export const notifyInfo = (message: string, options?: ToastOptions) => show('info', message, options);
export const notifyErrors = (messages: string[]) => messages.forEach((m) => notifyError(m));
