import type { OrganizationKey } from './en';

export const de = {
  title: 'Organisation',
  description: 'Wie Ihre Organisation Ihrem Team, Ihren Kunden und auf Ihren Rechnungen erscheint.',
  'tab.contact': 'Kontaktdaten',
  'tab.profile': 'Rechtliche Angaben',
  'tab.billing': 'Rechnungsdaten',
  'tab.emails': 'Fehlgeschlagene E-Mails',
  notLoaded: 'Die Angaben der Organisation konnten nicht geladen werden.',
  reload: 'Laden Sie die Seite neu, um es erneut zu versuchen.',
} satisfies Record<OrganizationKey, string>;
