import type { ToastOptions } from 'react-toastify';
import { TOAST } from '@tourdesk/contracts';

/** The spec's toast behaviour; the container (`app/Toasts.tsx`) uses these values. */
export const TOAST_CONTAINER_PROPS = {
  autoClose: TOAST.autoCloseMs,
  draggable: TOAST.draggable,
  // Bottom left: page actions sit at the top right (New…, Activate) and forms end at the bottom
  // right (Save); toasts there covered them for seconds.
  position: 'bottom-left',
  // The container is as wide as a toast may grow, its toasts often narrower: it lets clicks through
  // (a dialog's checkbox beside a stack of toasts was unclickable), its toasts take their own.
  style: { maxWidth: TOAST.maxWidthPx, width: '100%', pointerEvents: 'none' },
  toastStyle: { pointerEvents: 'auto' },
  newestOnTop: true,
} as const;

/**
 * react-toastify is not part of the first page load (10 kB gzip with its container): App mounts the
 * container once the page is idle or a toast is asked for (`wantToasts`, `toastsWanted`), and these functions
 * import react-toastify when they are called. A toast shown before the container has mounted waits
 * in react-toastify's own queue and appears when the container does. If the code cannot be fetched
 * (offline before it was ever loaded), the message goes to the console rather than nowhere.
 */
let wanted = false;
const listeners = new Set<() => void>();
export function wantToasts() {
  if (wanted) return;
  wanted = true;
  listeners.forEach((l) => l());
}
export const toastsWanted = {
  subscribe: (l: () => void) => (listeners.add(l), () => void listeners.delete(l)),
  get: () => wanted,
};

const toastify = () => import('react-toastify');
type Kind = 'error' | 'success' | 'info';
const show = (kind: Kind, message: string, options?: ToastOptions) => {
  wantToasts();
  toastify().then(
    ({ toast }) => toast[kind](message, options),
    () => (kind === 'error' ? console.error : console.warn)(message),
  );
};

export const notifyError = (message: string, options?: ToastOptions) => show('error', message, options);
export const notifySuccess = (message: string, options?: ToastOptions) => show('success', message, options);
export const notifyInfo = (message: string, options?: ToastOptions) => show('info', message, options);
export const notifyErrors = (messages: string[]) => messages.forEach((m) => notifyError(m));
