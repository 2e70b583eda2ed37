import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebOrder, type TInvoice } from '@tourdesk/contracts';
import type { Db } from '../src/db/client';
import { order } from '../src/db/schema';
import { QUEUES } from '../src/lib/jobs';
import { addDays, todayIn } from '../src/lib/local-time';
import { queueOrderMail } from '../src/modules/order-mail/service';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type CapturedMail, type MailSink } from './mail-sink';

/**
 * Everything a customer receives about an order besides the store's pages is in the order's
 * language (orders.language): the e-mails (confirmation, tickets sent again, reminder), the ticket
 * PDF, the order confirmation PDF, the calendar file, invoices and credit notes — with dates, times
 * and money in that language's locale. An issued invoice keeps the language it was issued in.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
let accountId: string;
let tour: { id: string; category: string; rule: string };
let slotId: string;
/** An offer refunding half from 100 days before its start: cancelled three days ahead, the order keeps half. */
let cruise: { id: string; category: string; slot: string };
let storeId: string;
const ZONE = 'Europe/Zurich';
const ORG = 'alpine tours';
const SELLER = { legal_name: 'Alpine Tours AG', billing_address: 'Seestrasse 1\n8002 Zürich', vat_number: 'CHE-123.456.789', vat_rate_bp: 810 };
const day = () => addDays(todayIn(ZONE), 3);
/** The departure's local date in a locale's own words (its month's name), as Intl writes it. */
const monthOf = (locale: string) => new Intl.DateTimeFormat(locale, { timeZone: ZONE, month: 'long' }).format(new Date(`${day()}T12:00:00Z`));

async function pdfText(bytes: Uint8Array | Buffer) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) pages.push((await (await doc.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  return pages.join('\n');
}
async function download(path: string) {
  const res = await owner.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return pdfText(res.rawPayload);
}
const attachment = (mail: CapturedMail, prefix: string) => mail.attachments.find((a) => a.filename.startsWith(prefix))!.content;
/** The calendar file with its folded lines unfolded (RFC 5545 §3.1). */
const icsOf = (mail: CapturedMail) => attachment(mail, 'booking-').toString().replace(/\r\n /g, '');

/** A back-office order of `lines` bookings of two adults, in `language` (as a web-store cart would have set it). */
async function sell(name: string, language: string, lines = 1) {
  const res = await owner.post('/api/orders/', { customer: { email: `${name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}@example.com`, first_name: name, last_name: 'Guest' }, lines: Array.from({ length: lines }, () => ({ slot: slotId, quantities: { [tour.category]: 2 } })) });
  expect(res.statusCode, res.body).toBe(201);
  await setLanguage(res.json().id, language);
  return res.json() as { id: string; reference: string; total: number; bookings: { id: string; ticket_code: string }[] };
}
const setLanguage = (orderId: string, language: string) => t.database.asOwner((db) => db.update(order).set({ language }).where(eq(order.id, orderId)));
/** Queues an order e-mail as the store, the payment or the reminder job would, and waits for it. */
async function queued(job: Parameters<typeof queueOrderMail>[2]) {
  await t.database.db.transaction((tx) => queueOrderMail(t.app.jobs, tx as unknown as Db, job));
  t.app.jobs.wake(QUEUES.orderMail);
}

/** A web-store order of two seats of `offer` paid on site, as a guest places it from a cart in `language`; its booking page's secret. */
async function webOrder(offer: { category: string }, slot: string, name: string, language?: string) {
  const { id: cart, token } = (await guest.post('/api/web-stores/alpine/carts/', language ? { language } : undefined)).json();
  const held = await guest.post(`/api/web-stores/alpine/carts/${cart}/lines/`, { slot, quantities: { [offer.category]: 2 } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  const placed = await guest.post('/api/web-stores/alpine/orders/', { cart, lines: [held.json().lines[0].id], customer: { email: `${name.toLowerCase()}@example.com`, first_name: name, last_name: 'Guest' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
  expect(placed.statusCode, placed.body).toBe(201);
  const o = ZWebOrder.parse(placed.json());
  return { ...o, secret: o.manage_url.split('#')[1]! };
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'alpine', currency: 'EUR', time_zone: ZONE });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  tour = await sellableExperience(owner, 'Glacier hike');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  // The offer's title and its category in German (no French: a French order reads the main language's).
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { translations: { de: { title: 'Gletscherwanderung' } } })).statusCode).toBe(200);
  expect((await owner.patch(`/api/pricing-categories/${tour.category}/`, { translations: { de: { label: 'Erwachsene' } } })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${tour.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: tour.id, valid_from: todayIn(ZONE), start_times: ['10:00'], capacity: 500 });
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${day()}`)).json()[0].id;
  expect((await owner.patch('/api/account/', SELLER)).statusCode).toBe(200);
  // The store sells in English (its main language), German and French.
  expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] })).statusCode).toBe(200);
  const made = await sellableExperience(owner, 'Lake cruise');
  const policy = (await owner.post('/api/cancellation-policies/', { name: 'Half', rules: [{ hours_before: 2400, refund_percent: 100 }, { hours_before: 1, refund_percent: 50 }] })).json().id;
  expect((await owner.patch(`/api/experiences/${made.id}/`, { status: 'Active', cancellation_policy: policy })).statusCode).toBe(200);
  cruise = { ...made, slot: (await owner.get(`/api/bookings/check-availability/?experience=${made.id}&date=${day()}`)).json()[0].id };
  storeId = (await owner.post('/api/stores/', { name: 'Alpine shop', slug: 'alpine' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id, cruise.id] });
  guest = new Browser(t.app, 'alpine.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a German order', () => {
  it('gets its tickets, confirmation and calendar file e-mailed in German, dates and money in German', async () => {
    const o = await sell('Greta', 'de');
    const sent = await owner.post(`/api/orders/${o.id}/send-tickets/`);
    expect(sent.statusCode, sent.body).toBe(202);
    const mail = await sink.latest('greta@example.com');
    expect(mail.subject).toBe(`Ihre Buchung ${o.reference} bei ${ORG}`);
    for (const s of [
      'Hallo Greta,',
      `hier sind noch einmal Ihre Tickets und die Bestätigung Ihrer Bestellung ${o.reference} bei ${ORG}:`,
      `Gletscherwanderung, `,
      monthOf('de-DE'),
      `  2 × Erwachsene  98,00\u00a0€`,
      'um 10:00',
      `Ticket: ${o.bookings[0]!.ticket_code}`,
      `Gesamt 98,00\u00a0€, vor Ort zu bezahlen: 98,00\u00a0€.`,
      'Ihr Ticket (mit QR-Code), die Bestellbestätigung und ein Kalendereintrag sind angehängt.',
    ]) {
      expect(mail.text).toContain(s);
    }
    expect(mail.text).not.toMatch(/Hello|Total|attached|Your ticket|Glacier|Adult/);

    const tickets = await pdfText(attachment(mail, 'tickets-'));
    for (const s of ['Gletscherwanderung', '2 × Erwachsene', monthOf('de-DE'), 'um 10:00', `Bestellung ${o.reference}`, 'Vor Ort zu bezahlen: 98,00 EUR', o.bookings[0]!.ticket_code]) expect(tickets).toContain(s);
    expect(tickets).not.toMatch(/Order|To pay|Glacier|Adult/);
    // The ticket downloaded by staff is the same German ticket.
    expect(await download(`/api/orders/${o.id}/tickets.pdf`)).toBe(tickets);

    const confirmation = await pdfText(attachment(mail, 'confirmation-'));
    for (const s of ['Bestellbestätigung', o.reference, 'Gesamt', 'Bezahlt', 'Vor Ort zu bezahlen', '98,00 EUR', `Ticket ${o.bookings[0]!.ticket_code}`]) expect(confirmation).toContain(s);
    expect(confirmation).not.toMatch(/Order confirmation|Paid|Total/);

    const ics = icsOf(mail);
    expect(ics).toContain('SUMMARY:Gletscherwanderung');
    expect(ics).toContain(`DESCRIPTION;LANGUAGE=de:${ORG} – Bestellung ${o.reference}\\, Ticket ${o.bookings[0]!.ticket_code}`);
  });

  it('gets its reminder in German, with plurals by the number of tickets', async () => {
    const o = await sell('Heinz', 'de', 2);
    await queued({ account: accountId, store: null, order: o.id, kind: 'reminder', to: 'heinz@example.com', subject: 'Reminder' });
    const mail = await sink.latest('heinz@example.com', /Morgen/);
    expect(mail.subject).toBe(`Morgen: Gletscherwanderung (${o.reference})`);
    for (const s of ['Hallo Heinz,', `wir erinnern Sie an Ihre Buchung bei ${ORG}:`, 'Vor Ort zu bezahlen: 196,00\u00a0€.', 'Ihre Tickets sind angehängt. Bis bald!']) expect(mail.text).toContain(s);
    for (const b of o.bookings) expect(mail.text).toContain(`Ticket: ${b.ticket_code}`);
  });

  it('gets a German invoice and credit note; an issued document keeps its language when the order’s changes', async () => {
    const o = await sell('Ilse', 'de', 3);
    const inv = (await owner.post(`/api/orders/${o.id}/invoice/`)).json() as TInvoice;
    const issuedOn = new Intl.DateTimeFormat('de-DE', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${inv.issued_on}T00:00:00Z`));
    const text = await download(`/api/orders/${o.id}/invoice.pdf`);
    for (const s of [`Rechnung ${inv.number}`, `Datum ${issuedOn}`, `Bestellung ${o.reference}`, 'USt-IdNr. CHE-123.456.789', 'Rechnungsempfänger', 'Seestrasse 1', '8002 Zürich', 'Beschreibung', 'Menge', 'Einzelpreis', 'MwSt.', 'Betrag', 'Netto', 'MwSt. 8,1 % auf', 'Gesamtbetrag', '294,00 EUR', 'Bezahlt', 'Offener Betrag']) {
      expect(text).toContain(s);
    }
    expect(text).not.toMatch(/Invoice|Bill to|Balance due|Unit price/);

    // A line cancelled: the credit note (a Stornorechnung) and the new invoice are German too.
    expect((await owner.post(`/api/orders/${o.id}/lines/${o.bookings[2]!.id}/cancel/`)).statusCode).toBe(200);
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string; number: string }[];
    expect(docs.map((d) => d.kind)).toEqual(['invoice', 'credit_note', 'invoice']);
    const note = await download(`/api/orders/${o.id}/invoices/${docs[1]!.id}/pdf/`);
    // The JSON says the language each was issued in (the back office draws the sheet in it).
    expect(inv.language).toBe('de');
    expect(((await owner.get(`/api/orders/${o.id}/invoices/${docs[1]!.id}/`)).json() as TInvoice).language).toBe('de');
    for (const s of [`Stornorechnung ${docs[1]!.number}`, `Storniert Rechnung ${inv.number}`, `vom ${issuedOn}`, '-294,00 EUR', 'Gesamtbetrag']) expect(note).toContain(s);
    expect(note).not.toMatch(/Credit note|Cancels invoice/);

    // The customer switches to French: what was issued stays German; the next document is French.
    await setLanguage(o.id, 'fr');
    expect(await download(`/api/orders/${o.id}/invoices/${docs[0]!.id}/pdf/`)).toBe(text);
    expect(await download(`/api/orders/${o.id}/invoices/${docs[1]!.id}/pdf/`)).toBe(note);
    expect((await owner.post(`/api/orders/${o.id}/lines/${o.bookings[1]!.id}/cancel/`)).statusCode).toBe(200);
    const after = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string; number: string }[];
    expect(after.map((d) => d.kind)).toEqual(['invoice', 'credit_note', 'invoice', 'credit_note', 'invoice']);
    const avoir = await download(`/api/orders/${o.id}/invoices/${after[3]!.id}/pdf/`);
    for (const s of [`Avoir ${after[3]!.number}`, `Annule la facture ${docs[2]!.number}`, 'Total TTC', 'TVA 8,1 % sur', '-196,00 EUR']) expect(avoir).toContain(s);
    expect(((await owner.get(`/api/orders/${o.id}/invoices/${docs[0]!.id}/`)).json() as TInvoice).language).toBe('de');
    expect(((await owner.get(`/api/orders/${o.id}/invoice/`)).json() as TInvoice).language).toBe('fr');
    const facture = await download(`/api/orders/${o.id}/invoice.pdf`);
    for (const s of [`Facture ${after[4]!.number}`, 'Facturé à', 'Prix unitaire', 'Reste dû', '98,00 EUR']) expect(facture).toContain(s);
  });

  it('has its cancellation fee written in its language on the invoice that states it', async () => {
    const res = await owner.post('/api/orders/', { customer: { email: 'jonas@example.com', first_name: 'Jonas', last_name: 'Guest' }, lines: [{ slot: cruise.slot, quantities: { [cruise.category]: 2 } }] });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json() as { id: string };
    await setLanguage(o.id, 'de');
    expect((await owner.post(`/api/orders/${o.id}/payments/`, { amount: 9800, currency: 'EUR', method: 'cash' })).statusCode).toBe(201);
    expect((await owner.post(`/api/orders/${o.id}/invoice/`)).statusCode).toBe(200);
    const cancelled = await owner.post(`/api/orders/${o.id}/cancel/`, { keep_cancellation_fee: true });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const fee = (await owner.get(`/api/orders/${o.id}/invoice/`)).json() as TInvoice;
    expect(fee.lines.map((l) => [l.description, l.total])).toEqual([['Stornogebühr', 4900]]);
    const text = await download(`/api/orders/${o.id}/invoice.pdf`);
    for (const s of ['Stornogebühr', '49,00 EUR', 'Bezahlt', '98,00 EUR', 'Offener Betrag', '-49,00 EUR']) expect(text).toContain(s);
  });
});

describe('a German web order', () => {
  it('is sold in German words: its invoice names the offer, the departure and each item as sold, in German', async () => {
    const o = await webOrder(tour, slotId, 'Greta', 'de');
    const orderId = (await owner.get(`/api/orders/?search=${o.reference}`)).json().results[0].id as string;
    expect((await owner.get(`/api/orders/${orderId}/`)).json().language).toBe('de');
    const inv = (await owner.post(`/api/orders/${orderId}/invoice/`)).json() as TInvoice;
    const when = new Intl.DateTimeFormat('de-DE', { timeZone: ZONE, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${day()}`)).json()[0] as { starts_at: string };
    expect(inv.lines.map((l) => l.description)).toEqual([`Gletscherwanderung, ${when.format(new Date(slot.starts_at))}: Erwachsene`]);
    // The offer renamed afterwards: a later invoice of the same sale still says what was sold.
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { translations: { de: { title: 'Gletschertour' } } })).statusCode).toBe(200);
    expect((await owner.get(`/api/orders/${orderId}/invoice/`)).json().lines[0].description).toMatch(/^Gletscherwanderung, /);
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { translations: { de: { title: 'Gletscherwanderung' } } })).statusCode).toBe(200);
  });

  it('booked from a German cart gets its confirmation in German, then its cancellation: what is refunded and what the policy keeps', async () => {
    const o = await webOrder(cruise, cruise.slot, 'Klara', 'de');
    const confirmation = await sink.latest('klara@example.com', /Ihre Buchung/);
    expect(confirmation.subject).toBe(`Ihre Buchung ${o.reference} bei ${ORG}`);
    for (const s of [
      'Hallo Klara,',
      `vielen Dank für Ihre Buchung bei ${ORG}. Ihre Bestellung ${o.reference}:`,
      `Lake cruise, `,
      monthOf('de-DE'),
      'Gesamt 98,00\u00a0€, vor Ort zu bezahlen: 98,00\u00a0€.',
      'Ihr Ticket (mit QR-Code) und ein Kalendereintrag sind angehängt.',
      `Buchung ansehen, Tickets herunterladen oder stornieren: ${o.manage_url}`,
    ]) {
      expect(confirmation.text).toContain(s);
    }
    expect(await pdfText(attachment(confirmation, 'tickets-'))).toContain('Vor Ort zu bezahlen: 98,00 EUR');
    expect(icsOf(confirmation)).toContain(`DESCRIPTION;LANGUAGE=de:${ORG} – Bestellung ${o.reference}`);

    const orderId = (await owner.get(`/api/orders/?search=${o.reference}`)).json().results[0].id as string;
    expect((await owner.post(`/api/orders/${orderId}/payments/`, { amount: 9800, currency: 'EUR', method: 'cash' })).statusCode).toBe(201);
    const cancelled = await guest.post(`/api/web-stores/alpine/orders/${o.reference}/cancel/`, {}, { 'x-order-token': o.secret });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const mail = await sink.latest('klara@example.com', /Storniert/);
    expect(mail.subject).toBe(`Storniert: Ihre Buchung ${o.reference} bei ${ORG}`);
    for (const s of ['Hallo Klara,', `Ihre Bestellung ${o.reference} bei ${ORG} ist wie gewünscht storniert:`, `Lake cruise, `, monthOf('de-DE'), '49,00\u00a0€ werden Ihnen erstattet.', 'Gemäß den Stornobedingungen wird eine Stornogebühr von 49,00\u00a0€ einbehalten.', 'Wir hoffen, Sie ein andermal begrüßen zu dürfen.']) {
      expect(mail.text).toContain(s);
    }
    expect(mail.attachments).toEqual([]);
  });
});

describe('a French order', () => {
  it('gets its confirmation with the booking page’s link in French, times in the organisation’s 12-hour setting', async () => {
    expect((await owner.patch('/api/product-configuration/', { time_format: '12h' })).statusCode).toBe(200);
    try {
      const o = await sell('Julie', 'fr', 2);
      await queued({ account: accountId, store: storeId, order: o.id, kind: 'confirmation', manage: 'the-booking-page-secret', to: 'julie@example.com', subject: 'Booking confirmation' });
      const mail = await sink.latest('julie@example.com', /Votre réservation/);
      expect(mail.subject).toBe(`Votre réservation ${o.reference} chez ${ORG}`);
      const money = (n: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(n);
      for (const s of [
        'Bonjour Julie,',
        `merci d’avoir réservé chez ${ORG}. Votre commande ${o.reference} :`,
        monthOf('fr-FR'),
        // No French title: the main language's.
        `Glacier hike, `,
        `Billet : ${o.bookings[0]!.ticket_code}`,
        `Total ${money(196)}, à payer sur place : ${money(196)}.`,
        'Vos billets (un code QR par réservation) et une entrée de calendrier sont joints.',
        'Consultez votre réservation, téléchargez vos billets ou annulez-la : http://alpine.localhost:3000/s/alpine/booking/',
      ]) {
        expect(mail.text).toContain(s);
      }
      expect(mail.text).toMatch(/10:00\sAM/);
      const tickets = await pdfText(attachment(mail, 'tickets-'));
      for (const s of [`Commande ${o.reference}`, 'À payer sur place : 196,00 EUR', '10:00 AM']) expect(tickets).toContain(s);
      expect(icsOf(mail)).toContain(`DESCRIPTION;LANGUAGE=fr:${ORG} — commande ${o.reference}\\, billet ${o.bookings[0]!.ticket_code}`);
    } finally {
      await owner.patch('/api/product-configuration/', { time_format: '24h' });
    }
  });
});

describe('a refund', () => {
  it('is told to the customer in the order’s language, the amount in its locale', async () => {
    const o = await sell('Léa', 'fr');
    const paid = await owner.post(`/api/orders/${o.id}/payments/`, { amount: 9800, currency: 'EUR', method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    const refund = await owner.post(`/api/orders/${o.id}/payments/`, { amount: -4900, currency: 'EUR', method: 'cash', refund_of: paid.json().id, reason: 'One guest less' });
    expect(refund.statusCode, refund.body).toBe(201);
    const mail = await sink.latest('lea@example.com', /Remboursement/);
    expect(mail.subject).toBe(`Remboursement de votre réservation ${o.reference} chez ${ORG}`);
    const amount = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(49);
    expect(mail.text).toBe(`Bonjour Léa,\n\n${ORG} vous a remboursé ${amount} sur votre commande ${o.reference}.\n`);
  });
});

describe('an order sold at the counter', () => {
  it('is in the language staff choose, else the organisation’s main one; staff can change it for what is sent next', async () => {
    const sale = (extra: Record<string, unknown>) => owner.post('/api/orders/', { customer: { email: 'desk@example.com', first_name: 'Desk' }, lines: [{ slot: slotId, quantities: { [tour.category]: 1 } }], ...extra });
    const german = await sale({ language: 'de' });
    expect(german.statusCode, german.body).toBe(201);
    expect(german.json().language).toBe('de');
    expect((await sale({ language: 'xx' })).json().errors[0]).toMatchObject({ attr: 'language', detail: 'Choose one of: en, de, fr, it, es.' });
    // Without one: the main language, which the organisation may change.
    expect((await sale({})).json().language).toBe('en');
    expect((await owner.patch('/api/product-configuration/', { languages: ['de', 'en', 'fr'] })).statusCode).toBe(200);
    try {
      expect((await sale({})).json().language).toBe('de');
    } finally {
      expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] })).statusCode).toBe(200);
    }
    const changed = await owner.patch(`/api/orders/${german.json().id}/`, { language: 'fr' });
    expect(changed.json().language).toBe('fr');
    const audit = (await owner.get(`/api/orders/${german.json().id}/audit/`)).json() as { action: string; changes: { language?: string[] } }[];
    expect(audit.find((e) => e.changes.language)?.changes.language).toEqual(['de', 'fr']);
  });
});

describe('an English order', () => {
  it('books in the store and gets the confirmation as before: English words, dates and money', async () => {
    const o = await webOrder(tour, slotId, 'Kim');
    const mail = await sink.latest('kim@example.com', /Your booking/);
    expect(mail.subject).toBe(`Your booking ${o.reference} with ${ORG}`);
    const month = monthOf('en-GB');
    for (const s of [
      'Hello Kim,',
      `thank you for booking with ${ORG}. Your order ${o.reference}:`,
      `Glacier hike, `,
      month,
      `Ticket: ${o.bookings[0]!.ticket_code}`,
      'Total €98.00, to pay on site: €98.00.',
      'Your ticket (with its QR code) and a calendar entry are attached.',
      `See your booking, download your tickets or cancel it: ${o.manage_url}`,
    ]) {
      expect(mail.text).toContain(s);
    }
    const tickets = await pdfText(attachment(mail, 'tickets-'));
    for (const s of [`Order ${o.reference}`, 'To pay on site: EUR 98.00', month, '10:00']) expect(tickets).toContain(s);
    expect(icsOf(mail)).toContain(`DESCRIPTION;LANGUAGE=en:${ORG} — order ${o.reference}\\, ticket ${o.bookings[0]!.ticket_code}`);
  });
});
