/** The organisation's settings: the page's header and tabs (English, the contract). Its forms are not translated yet. */
export const en = {
  title: 'Organisation',
  description: 'How your organisation appears to your team, your customers and on your invoices.',
  'tab.contact': 'Contact info',
  'tab.profile': 'Legal info',
  'tab.billing': 'Billing info',
  'tab.emails': 'Failed e-mails',
  notLoaded: 'The organisation’s details could not be loaded.',
  reload: 'Reload the page to try again.',
  'languages.title': 'Languages you sell in',
  'languages.hint': 'The web store, e-mails and partners (OCTO) serve these. The first is the main language: your offers’ own texts, and what customers read where a translation is missing. A language taken out keeps its translations.',
  'languages.main': 'Main language',
  'languages.makeMain': 'Make {language} the main language',
  'languages.remove': 'Remove {language}',
  'languages.add': 'Add a language',
  'languages.choose': 'Choose a language',
} as const satisfies Record<string, string>;

export type OrganizationKey = keyof typeof en;
