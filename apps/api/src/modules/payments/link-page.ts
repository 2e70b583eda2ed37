import { mailMoney, translateFor } from '../../lib/customer-text';
import type { LinkView } from './links';

/**
 * A payment link's page (links.ts), drawn on the server in the order's language: what is due now
 * and a button to Stripe's payment page, or how things stand (paid, nothing due, cancelled, …).
 * No script; the styles inline (the security headers allow inline styles, never scripts).
 */
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function paymentLinkHtml(view: LinkView | null, payPath: string | null): string {
  const t = translateFor(view?.language ?? 'en');
  const due = view ? mailMoney(t, view.due, view.currency) : '';
  const about = view ? { reference: view.reference, organisation: view.organisation } : null;
  let body: string;
  if (!view || !about) body = `<p role="status">${escape(t('pay.notFound'))}</p>`;
  else {
    const message = {
      due: null,
      paid: t('pay.paid', about),
      partly_paid: t('pay.partlyPaid', { due }),
      nothing_due: t('pay.nothingDue', about),
      cancelled: t('pay.cancelled', about),
      unavailable: t('pay.unavailable', about),
      processing: t('pay.processing'),
      refunded: t('pay.refunded'),
    }[view.state];
    body =
      `<h1>${escape(t('pay.title', about))}</h1>` +
      (message ? `<p role="status">${escape(message)}</p>` : '') +
      (view.due > 0 && view.state !== 'cancelled' ? `<p data-testid="due">${escape(t('pay.due', { due }))}</p>` : '') +
      ((view.state === 'due' || view.state === 'partly_paid') && payPath
        ? `<p><a class="pay" href="${escape(payPath)}">${escape(t('pay.button', { due }))}</a></p><p class="note">${escape(t('pay.secure'))}</p>`
        : '');
  }
  const title = about ? t('pay.title', about) : t('pay.notFound');
  return `<!doctype html>
<html lang="${escape(t.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 2rem 1rem; }
  main { max-width: 32rem; margin: 0 auto; line-height: 1.5; }
  h1 { font-size: 1.4rem; }
  a.pay { display: inline-block; padding: 0.75rem 1.25rem; border-radius: 0.4rem; background: #1c5fb8; color: #fff; text-decoration: none; font-weight: 600; }
  .note { font-size: 0.9rem; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
