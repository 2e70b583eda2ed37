/**
 * A scan turns a QR code's text (the booking's ticket code, or an address ending with it) into a
 * code. In a module of its own, without schemas: the back office's first page load uses it (the
 * check-in device's storage is wiped at sign-out) and must not carry zod.
 */
export function normaliseTicketCode(text: string) {
  const trimmed = text.trim();
  const last = trimmed.split('/').filter(Boolean).pop() ?? '';
  return last.replace(/\s+/g, '').toUpperCase();
}
