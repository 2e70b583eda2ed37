import { Alert, Anchor, Badge, Button, Checkbox, Code, CopyButton, Group, Loader, Modal, NumberInput, Pagination, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconCopy } from '@tabler/icons-react';
import { bpToPercent, type TApiKeyCreated, type TPartnerOffers, type TPartnership } from '@tourdesk/contracts';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime, formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney, toMajorUnits, toMinorUnits } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import {
  useCreatePartnerApiKeyMutation,
  usePartnerApiKeysQuery,
  usePartnerOfferChoicesQuery,
  usePartnershipActionMutation,
  usePartnershipQuery,
  useRevokePartnerApiKeyMutation,
  useUpdatePartnerContractMutation,
} from './api';
import { ContractFields, contractBody, type ContractForm, PARTNERS_PATH, percent, StatusBadge } from './parts';

type Offers = Record<string, Record<string, number>>;

const formOf = (p: TPartnership): ContractForm => ({
  pricing: p.pricing,
  commission_percent: bpToPercent(p.commission_bp),
  payment_collector: p.payment_collector,
  valid_from: p.valid_from ?? '',
  valid_to: p.valid_to ?? '',
  notes: p.notes,
});

/** The supplier's offers to share, each with its net rate per pricing category when the contract is priced by net rates. */
function OfferPicker({ choices, value, onChange, net, readOnly }: { choices: TPartnerOffers; value: Offers; onChange: (o: Offers) => void; net: boolean; readOnly: boolean }) {
  if (choices.results.length === 0) return <Text size="sm">You have no offers yet.</Text>;
  return (
    <Stack gap="xs">
      {choices.results.map((o) => {
        const shared = o.experience_id in value;
        return (
          <Paper key={o.experience_id} withBorder p="sm" radius="md">
            <Checkbox
              label={o.title}
              description={o.status === 'Active' ? undefined : o.status}
              checked={shared}
              disabled={readOnly}
              onChange={(e) => {
                const next = { ...value };
                if (e.currentTarget.checked) next[o.experience_id] = {};
                else delete next[o.experience_id];
                onChange(next);
              }}
            />
            {shared && net && (
              <Stack gap={4} mt="xs" ml="xl">
                {o.prices.length === 0 && (
                  <Text size="xs" c="dimmed">
                    This offer has no prices yet.
                  </Text>
                )}
                {o.prices.map((pr) => (
                  <Group key={pr.pricing_category_id} gap="sm" wrap="wrap">
                    <Text size="sm" miw={140}>
                      {pr.label}
                    </Text>
                    <Text size="xs" c="dimmed" miw={110}>
                      retail {formatMoney(pr.retail_price, choices.currency)}
                    </Text>
                    <NumberInput
                      aria-label={`Net rate of ${pr.label} for ${o.title}`}
                      size="xs"
                      w={140}
                      min={0}
                      decimalScale={2}
                      suffix={` ${choices.currency}`}
                      readOnly={readOnly}
                      placeholder={pr.net_price !== null ? String(toMajorUnits(pr.net_price, choices.currency)) : 'net rate'}
                      value={value[o.experience_id]?.[pr.pricing_category_id] !== undefined ? toMajorUnits(value[o.experience_id]![pr.pricing_category_id]!, choices.currency) : ''}
                      onChange={(v) => {
                        const rates = { ...value[o.experience_id] };
                        const minor = v === '' ? null : toMinorUnits(String(v), choices.currency);
                        if (minor === null) delete rates[pr.pricing_category_id];
                        else rates[pr.pricing_category_id] = minor;
                        onChange({ ...value, [o.experience_id]: rates });
                      }}
                    />
                  </Group>
                ))}
              </Stack>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}

function ApiKeys({ p }: { p: TPartnership }) {
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const [page, setPage] = useState(1);
  const { data } = usePartnerApiKeysQuery({ id: p.id, page });
  const [create, { isLoading }] = useCreatePartnerApiKeyMutation();
  const [revoke] = useRevokePartnerApiKeyMutation();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const canIssue = p.status === 'Active' || p.status === 'Suspended';
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={4}>API keys</Title>
        <Text size="sm" c="dimmed">
          Keys let this partner book your shared offers through the booking API and OCTO. The secret is shown once, when the key is made.
        </Text>
        {canIssue && (
          <Group align="flex-end">
            <TextInput label="Key name" placeholder="Booking engine" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} style={{ flex: 1 }} miw={200} />
            <Button
              loading={isLoading}
              disabled={!name.trim()}
              onClick={async () => {
                const res = await create({ id: p.id, name: name.trim() });
                if ('data' in res && res.data) {
                  setCreated(res.data);
                  setName('');
                  notifySuccess('API key created.');
                }
              }}
            >
              Create key
            </Button>
          </Group>
        )}
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="API keys" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="sm" c="dimmed">
                      No key yet.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {data?.results.map((k) => (
                <Table.Tr key={k.id} data-testid="api-key-row">
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>
                    <Code>{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(k.created_at, zone)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{k.last_used_at ? formatDateTime(k.last_used_at, zone) : 'Never'}</Table.Td>
                  <Table.Td ta="right">
                    {k.revoked_at ? (
                      <Badge variant="light" color="gray">
                        Revoked
                      </Badge>
                    ) : (
                      <ConfirmButton
                        size="xs"
                        variant="light"
                        color="red"
                        title="Revoke this key?"
                        message={`Calls with "${k.name}" (${k.prefix}…) are refused from now on. This cannot be undone.`}
                        confirmLabel="Revoke key"
                        onConfirm={async () => {
                          const res = await revoke({ id: p.id, keyId: k.id });
                          if ('data' in res) notifySuccess('API key revoked.');
                          return 'data' in res;
                        }}
                      >
                        Revoke
                      </ConfirmButton>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {(data?.total_pages ?? 0) > 1 && <Pagination size="sm" total={data!.total_pages} value={page} onChange={setPage} />}
      </Stack>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Your new API key" centered>
        {created && (
          <Stack>
            <Alert color="yellow" variant="light">
              Copy the secret now: it is shown only this once. Only its fingerprint is kept.
            </Alert>
            <Code block data-testid="api-key-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {created.secret}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={created.secret}>
                {({ copied, copy }) => (
                  <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                    {copied ? 'Copied' : 'Copy secret'}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => setCreated(null)}>Done</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}

function StatusActions({ p }: { p: TPartnership }) {
  const [act] = usePartnershipActionMutation();
  const run = (action: 'accept' | 'decline' | 'suspend' | 'resume' | 'end', done: string) => async () => {
    const res = await act({ id: p.id, action });
    if ('data' in res) notifySuccess(done);
    return 'data' in res;
  };
  const live = p.status === 'Active' || p.status === 'Suspended' || (p.status === 'Invited' && p.invited_by_me);
  return (
    <Group gap="xs">
      {p.can_respond && (
        <>
          <Button color="green" onClick={() => void run('accept', 'Partnership accepted.')()}>
            Accept
          </Button>
          <ConfirmButton variant="default" title="Decline this invitation?" message="The partnership will not start. The other organisation sees that you declined." confirmLabel="Decline" onConfirm={run('decline', 'Invitation declined.')}>
            Decline
          </ConfirmButton>
        </>
      )}
      {p.side === 'supplier' && p.status === 'Active' && (
        <ConfirmButton variant="default" color="orange" title="Suspend this partnership?" message="Nothing can be sold under the contract until you resume it." confirmLabel="Suspend" onConfirm={run('suspend', 'Partnership suspended.')}>
          Suspend
        </ConfirmButton>
      )}
      {p.side === 'supplier' && p.status === 'Suspended' && <Button onClick={() => void run('resume', 'Partnership resumed.')()}>Resume</Button>}
      {live && (
        <ConfirmButton variant="light" color="red" title={p.status === 'Invited' ? 'Withdraw this invitation?' : 'End this partnership?'} message="Ending is final: the contract stops and its API keys are revoked." confirmLabel={p.status === 'Invited' ? 'Withdraw' : 'End partnership'} onConfirm={run('end', p.status === 'Invited' ? 'Invitation withdrawn.' : 'Partnership ended.')}>
          {p.status === 'Invited' ? 'Withdraw' : 'End'}
        </ConfirmButton>
      )}
    </Group>
  );
}

function Contract({ p }: { p: TPartnership }) {
  const [form, setForm] = useState(() => formOf(p));
  const [offers, setOffers] = useState<Offers>(() => Object.fromEntries(p.offers.map((o) => [o.experience_id, o.net_rates])));
  const choices = usePartnerOfferChoicesQuery(p.id, { skip: p.side !== 'supplier' });
  const [save, { isLoading }] = useUpdatePartnerContractMutation();
  const readOnly = !p.can_edit;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <div>
          <Title order={4}>Contract</Title>
          <Text size="sm" c="dimmed">
            {p.side === 'supplier' ? 'You supply: you set the contract, your partner reads the same.' : 'Your supplier sets the contract; you read the same as they do.'} Prices in {p.currency}.
          </Text>
        </div>
        <ContractFields value={form} onChange={setForm} readOnly={readOnly} />
        <div>
          <Text fw={500} size="sm" mb={6}>
            Shared offers
          </Text>
          {p.side === 'supplier' ? (
            choices.data ? (
              <OfferPicker choices={choices.data} value={offers} onChange={setOffers} net={form.pricing === 'net'} readOnly={readOnly} />
            ) : (
              <Loader size="sm" />
            )
          ) : p.offers.length === 0 ? (
            <Text size="sm">No offer is shared yet.</Text>
          ) : (
            <Stack gap={4}>
              {p.offers.map((o) => (
                <Text key={o.experience_id} size="sm" data-testid="shared-offer">
                  {o.title}
                  {p.pricing === 'net' && (
                    <Text span c="dimmed" size="xs">
                      {' '}
                      · net {Object.values(o.net_rates).map((n) => formatMoney(n, p.currency)).join(', ') || 'at the pricing rates'}
                    </Text>
                  )}
                </Text>
              ))}
            </Stack>
          )}
        </div>
        {!readOnly && (
          <Group justify="flex-end">
            <Button
              loading={isLoading}
              onClick={async () => {
                const res = await save({ id: p.id, ...contractBody(form), offers: Object.entries(offers).map(([experience_id, net_rates]) => ({ experience_id, net_rates: form.pricing === 'net' ? net_rates : {} })) });
                if ('data' in res) notifySuccess('Contract saved.');
              }}
            >
              Save contract
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** /sales/partners/{id}: one partnership — its contract (the same for both sides), its status, and the supplier's API keys for it. */
export default function PartnerDetailPage() {
  const { partnerId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: p, isError } = usePartnershipQuery(partnerId, { skip: !partnerId });
  useEffect(() => {
    if (isError) navigate(PARTNERS_PATH, { replace: true });
  }, [isError, navigate]);
  if (!p) return <Loader />;
  const name = p.partner.name ?? p.partner.email ?? 'Partner';
  return (
    <Stack gap="md" maw={1100}>
      <Anchor component={Link} to={`${PARTNERS_PATH}${p.side === 'reseller' ? '?partner_type=Suppliers' : ''}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> All partners
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{name}</Title>
            <StatusBadge status={p.status} />
          </Group>
          <Text c="dimmed" size="sm">
            {p.side === 'supplier' ? 'Resells your offers' : 'Supplies offers you resell'}
            {p.partner.subdomain && ` · ${p.partner.subdomain}`}
            {p.pricing === 'commission' && ` · ${percent(p.commission_bp)} commission`}
            {` · since ${formatDisplayDate(p.created_at, zone)}`}
          </Text>
        </div>
        <StatusActions p={p} />
      </Group>
      {p.status === 'Invited' && (
        <Alert variant="light" color="blue">
          {p.can_respond ? 'This organisation invited you. Read the contract, then accept or decline.' : p.partner.email && !p.partner.id ? `Invitation sent to ${p.partner.email}; waiting for an answer.` : 'Invitation sent; waiting for an answer.'}
        </Alert>
      )}
      {/* Keyed by the saved version: a save or the other side's change starts the form afresh. */}
      <Contract key={p.updated_at} p={p} />
      {p.side === 'supplier' && p.status !== 'Invited' && p.status !== 'Declined' && <ApiKeys p={p} />}
    </Stack>
  );
}
