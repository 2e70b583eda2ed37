/** The spec's tab group for /settings/organization/{tab}: Contact info, Legal info, Billing info. */
export const ORGANIZATION_TABS = [
  { tab: 'contact', label: 'Contact info', ownersOnly: false },
  { tab: 'profile', label: 'Legal info', ownersOnly: false },
  { tab: 'billing', label: 'Billing info', ownersOnly: false },
  // E-mails the SMTP server never took after every retry (the job queue's failed jobs): Owners only.
  { tab: 'emails', label: 'Failed e-mails', ownersOnly: true },
] as const;
export type OrganizationTab = (typeof ORGANIZATION_TABS)[number]['tab'];

export const organizationPath = (tab: OrganizationTab = 'contact') => `/settings/organization/${tab}`;
export const isOrganizationTab = (tab: string | undefined): tab is OrganizationTab => ORGANIZATION_TABS.some((t) => t.tab === tab);


/** Basis points ↔ the percentage people type: the contracts' one conversion. */
export { bpToPercent, percentToBp } from '@tourdesk/contracts';

export { timeZones } from '../../shared/lib/locale-defaults';
