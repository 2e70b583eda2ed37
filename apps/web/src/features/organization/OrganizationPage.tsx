import { Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { LAYOUT_WIDTHS, type TOrganization } from '@tourdesk/contracts';
import type { ComponentType } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { useOrganizationQuery } from './api';
import { isOrganizationTab, ORGANIZATION_TABS, organizationPath, type OrganizationTab } from './constants';
import { BillingForm, ContactForm, LegalForm } from './OrganizationForms';

const FORMS: Record<OrganizationTab, ComponentType<{ organization: TOrganization }>> = {
  contact: ContactForm,
  profile: LegalForm,
  billing: BillingForm,
};

/** /settings/organization/{contact|profile|billing}: the organisation's details, one tab per route. */
export default function OrganizationPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const { data: organization, isError } = useOrganizationQuery();

  // /settings/organization/ and an unknown tab land on the contact info.
  if (!isOrganizationTab(tab)) return <Navigate to={organizationPath()} replace />;
  const Form = FORMS[tab];

  return (
    <Stack gap="md" maw={LAYOUT_WIDTHS.form}>
      <div>
        <Title order={2}>Organisation</Title>
        <Text c="dimmed">How your organisation appears to your team, your customers and on your invoices.</Text>
      </div>
      <Tabs value={tab} onChange={(v) => v && navigate(organizationPath(v as OrganizationTab))} keepMounted={false}>
        <Tabs.List>
          {ORGANIZATION_TABS.map((t) => (
            <Tabs.Tab key={t.tab} value={t.tab}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {organization ? (
        <Form key={tab} organization={organization} />
      ) : isError ? (
        <ErrorPanel message="The organisation’s details could not be loaded." formalMessage="Reload the page to try again." />
      ) : (
        <Loader />
      )}
    </Stack>
  );
}
