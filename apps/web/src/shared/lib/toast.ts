import { toast, type ToastOptions } from 'react-toastify';
import { TOAST } from '@tourdesk/contracts';

/** The spec's toast behaviour; the container in `app/providers.tsx` uses the same values. */
export const TOAST_CONTAINER_PROPS = {
  autoClose: TOAST.autoCloseMs,
  draggable: TOAST.draggable,
  // Bottom left: page actions sit at the top right (New…, Activate) and forms end at the bottom
  // right (Save); toasts there covered them for seconds.
  position: 'bottom-left',
  style: { maxWidth: TOAST.maxWidthPx, width: '100%' },
  newestOnTop: true,
} as const;

export const notifyError = (message: string, options?: ToastOptions) => toast.error(message, options);
export const notifySuccess = (message: string, options?: ToastOptions) => toast.success(message, options);
export const notifyErrors = (messages: string[]) => messages.forEach((m) => notifyError(m));
