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
} as const satisfies Record<string, string>;

export type OrganizationKey = keyof typeof en;
