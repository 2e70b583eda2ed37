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
  'languages.title': 'Ihre Verkaufssprachen',
  'languages.hint': 'Der Webshop, E-Mails und Partner (OCTO) nutzen diese Sprachen. Die erste ist die Hauptsprache: die eigenen Texte Ihrer Angebote und das, was Kunden lesen, wo eine Übersetzung fehlt. Eine entfernte Sprache behält ihre Übersetzungen.',
  'languages.main': 'Hauptsprache',
  'languages.makeMain': '{language} zur Hauptsprache machen',
  'languages.remove': '{language} entfernen',
  'languages.add': 'Sprache hinzufügen',
  'languages.choose': 'Sprache wählen',
} satisfies Record<OrganizationKey, string>;
