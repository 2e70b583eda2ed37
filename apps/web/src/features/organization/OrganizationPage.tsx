import { Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { LAYOUT_WIDTHS, type TOrganization } from '@tourdesk/contracts';
import type { ComponentType } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { useOrganizationQuery } from './api';
import { isOrganizationTab, ORGANIZATION_TABS, organizationPath, type OrganizationTab } from './constants';
import { FailedEmailsTab } from './FailedEmailsTab';
import { BillingForm, ContactForm, LegalForm } from './OrganizationForms';
import { useAppSelector } from '../../shared/hooks/store';
import { useOrganizationT } from './texts';

const FORMS: Record<Exclude<OrganizationTab, 'emails'>, ComponentType<{ organization: TOrganization }>> = {
  contact: ContactForm,
  profile: LegalForm,
  billing: BillingForm,
};

/**
 * /settings/organization/{contact|profile|billing}: the organisation's details, one tab per route;
 * and, for Owners, /settings/organization/emails: the e-mails that could not be delivered.
 */
export default function OrganizationPage() {
  const tr = useOrganizationT();
  const { tab } = useParams();
  const navigate = useNavigate();
  const isOwner = useAppSelector((s) => Boolean(s.auth.user?.role?.is_owner));
  const { data: organization, isError } = useOrganizationQuery();
  const tabs = ORGANIZATION_TABS.filter((t) => isOwner || !t.ownersOnly);

  // /settings/organization/ and an unknown tab (or one this user may not open) land on the contact info.
  if (!isOrganizationTab(tab) || !tabs.some((t) => t.tab === tab)) return <Navigate to={organizationPath()} replace />;
  const Form = tab === 'emails' ? null : FORMS[tab];

  return (
    <Stack gap="md" maw={LAYOUT_WIDTHS.form}>
      <div>
        <Title order={2}>{tr('title')}</Title>
        <Text c="dimmed">{tr('description')}</Text>
      </div>
      <Tabs value={tab} onChange={(v) => v && navigate(organizationPath(v as OrganizationTab))} keepMounted={false}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.tab} value={t.tab}>
              {tr(`tab.${t.tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {!Form ? (
        <FailedEmailsTab />
      ) : organization ? (
        <Form key={tab} organization={organization} />
      ) : isError ? (
        <ErrorPanel message={tr('notLoaded')} formalMessage={tr('reload')} />
      ) : (
        <Loader />
      )}
    </Stack>
  );
}
