import type { AccountingKey } from './en';

export const de = {
  title: 'Buchhaltungsexport',
  intro: 'Das Journal eines Zeitraums für Ihre Buchhaltung und seine Rechnungen und Gutschriften als PDF. Die Daten gelten in der Zeitzone Ihrer Organisation ({zone}), beide Tage eingeschlossen.',
  from: 'Von',
  to: 'Bis',
  'summary.label': 'Was der Zeitraum enthält',
  'summary.rows': '{count, plural, =0 {Keine Journalzeilen} one {# Journalzeile} other {# Journalzeilen}}',
  'summary.documents': '{invoices, plural, =0 {keine Rechnungen} one {# Rechnung} other {# Rechnungen}} und {creditNotes, plural, =0 {keine Gutschriften} one {# Gutschrift} other {# Gutschriften}}',
  'summary.sales': 'Verkaufszeilen: {count}',
  'summary.creditNotes': 'Gutschriftzeilen: {count}',
  'summary.fees': 'Gebühren: {count}',
  'summary.payments': 'Zahlungen: {count}',
  'summary.refunds': 'Rückerstattungen: {count}',
  'summary.commissions': 'Partnerprovisionen: {count}',
  'summary.vouchers': 'Geschenkgutscheine verkauft, ausgestellt oder storniert: {count}',
  'download.journal': 'Journal herunterladen (CSV)',
  'download.documents': 'Rechnungen und Gutschriften herunterladen (ZIP)',
  'download.done': '{name} gespeichert.',
  'format.title': 'Das Format des Journals',
  'format.body': 'Eine Zeile je Verkaufsposition einer Rechnung oder Gutschrift (oder einer Bestellung ohne Rechnung), Zahlung, Rückerstattung, Gebühr und Partnerprovision, mit Datum, Belegnummer, Kategorie, Beschreibung und Währung. Beträge mit Dezimalpunkt und ohne Tausendertrennzeichen (1234.50); Gutschriften, Rückerstattungen und Kosten sind negativ; dieselben Beträge folgen in kleinsten Einheiten (Rappen, Cent) als ganze Zahlen. Kommagetrennt, UTF-8.',
  'format.documents': 'Das ZIP enthält ein PDF je Rechnung und Gutschrift des Zeitraums, benannt nach ihrer Nummer.',
} as const satisfies Record<AccountingKey, string>;
