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
import { usePartnersT } from './texts';

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
  const t = usePartnersT();
  const status: Record<string, string> = { Draft: t('detail.status.Draft'), Inactive: t('detail.status.Inactive') };
  if (choices.results.length === 0) return <Text size="sm">{t('detail.noOffers')}</Text>;
  return (
    <Stack gap="xs">
      {choices.results.map((o) => {
        const shared = o.experience_id in value;
        return (
          <Paper key={o.experience_id} withBorder p="sm" radius="md">
            <Checkbox
              label={o.title}
              description={o.status === 'Active' ? undefined : (status[o.status] ?? o.status)}
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
                    {t('detail.noPrices')}
                  </Text>
                )}
                {o.prices.map((pr) => (
                  <Group key={pr.pricing_category_id} gap="sm" wrap="wrap">
                    <Text size="sm" miw={140}>
                      {pr.label}
                    </Text>
                    <Text size="xs" c="dimmed" miw={110}>
                      {t('detail.retail', { price: formatMoney(pr.retail_price, choices.currency) })}
                    </Text>
                    <NumberInput
                      aria-label={t('detail.netRateOf', { category: pr.label, offer: o.title })}
                      size="xs"
                      w={140}
                      min={0}
                      decimalScale={2}
                      suffix={` ${choices.currency}`}
                      readOnly={readOnly}
                      placeholder={pr.net_price !== null ? String(toMajorUnits(pr.net_price, choices.currency)) : t('detail.netRate')}
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
  const t = usePartnersT();
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
        <Title order={4}>{t('detail.apiKeys')}</Title>
        <Text size="sm" c="dimmed">
          {t('detail.apiKeysHint')}
        </Text>
        {canIssue && (
          <Group align="flex-end">
            <TextInput label={t('detail.keyName')} placeholder={t('detail.keyNamePlaceholder')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} style={{ flex: 1 }} miw={200} />
            <Button
              loading={isLoading}
              disabled={!name.trim()}
              onClick={async () => {
                const res = await create({ id: p.id, name: name.trim() });
                if ('data' in res && res.data) {
                  setCreated(res.data);
                  setName('');
                  notifySuccess(t('detail.keyCreated'));
                }
              }}
            >
              {t('detail.createKey')}
            </Button>
          </Group>
        )}
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('detail.apiKeys')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.col.name')}</Table.Th>
                <Table.Th>{t('detail.col.key')}</Table.Th>
                <Table.Th>{t('detail.col.created')}</Table.Th>
                <Table.Th>{t('detail.col.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="sm" c="dimmed">
                      {t('detail.noKey')}
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
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{k.last_used_at ? formatDateTime(k.last_used_at, zone) : t('detail.never')}</Table.Td>
                  <Table.Td ta="right">
                    {k.revoked_at ? (
                      <Badge variant="light" color="gray">
                        {t('detail.revoked')}
                      </Badge>
                    ) : (
                      <ConfirmButton
                        size="xs"
                        variant="light"
                        color="red"
                        title={t('detail.revokeTitle')}
                        message={t('detail.revokeMessage', { name: k.name, prefix: k.prefix })}
                        confirmLabel={t('detail.revokeKey')}
                        onConfirm={async () => {
                          const res = await revoke({ id: p.id, keyId: k.id });
                          if ('data' in res) notifySuccess(t('detail.keyRevoked'));
                          return 'data' in res;
                        }}
                      >
                        {t('detail.revoke')}
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
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('detail.newKey')} centered>
        {created && (
          <Stack>
            <Alert color="yellow" variant="light">
              {t('detail.copyNow')}
            </Alert>
            <Code block data-testid="api-key-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {created.secret}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={created.secret}>
                {({ copied, copy }) => (
                  <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                    {copied ? t('detail.copied') : t('detail.copySecret')}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => setCreated(null)}>{t('detail.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}

function StatusActions({ p }: { p: TPartnership }) {
  const t = usePartnersT();
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
          <Button color="green" onClick={() => void run('accept', t('detail.accepted'))()}>
            {t('detail.accept')}
          </Button>
          <ConfirmButton variant="default" title={t('detail.declineTitle')} message={t('detail.declineMessage')} confirmLabel={t('detail.decline')} onConfirm={run('decline', t('detail.declined'))}>
            {t('detail.decline')}
          </ConfirmButton>
        </>
      )}
      {p.side === 'supplier' && p.status === 'Active' && (
        <ConfirmButton variant="default" color="orange" title={t('detail.suspendTitle')} message={t('detail.suspendMessage')} confirmLabel={t('detail.suspend')} onConfirm={run('suspend', t('detail.suspended'))}>
          {t('detail.suspend')}
        </ConfirmButton>
      )}
      {p.side === 'supplier' && p.status === 'Suspended' && <Button onClick={() => void run('resume', t('detail.resumed'))()}>{t('detail.resume')}</Button>}
      {live && (
        <ConfirmButton variant="light" color="red" title={p.status === 'Invited' ? t('detail.withdrawTitle') : t('detail.endTitle')} message={t('detail.endMessage')} confirmLabel={p.status === 'Invited' ? t('detail.withdraw') : t('detail.endPartnership')} onConfirm={run('end', p.status === 'Invited' ? t('detail.withdrawn') : t('detail.ended'))}>
          {p.status === 'Invited' ? t('detail.withdraw') : t('detail.end')}
        </ConfirmButton>
      )}
    </Group>
  );
}

function Contract({ p }: { p: TPartnership }) {
  const t = usePartnersT();
  const [form, setForm] = useState(() => formOf(p));
  const [offers, setOffers] = useState<Offers>(() => Object.fromEntries(p.offers.map((o) => [o.experience_id, o.net_rates])));
  const choices = usePartnerOfferChoicesQuery(p.id, { skip: p.side !== 'supplier' });
  const [save, { isLoading }] = useUpdatePartnerContractMutation();
  const readOnly = !p.can_edit;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <div>
          <Title order={4}>{t('detail.contract')}</Title>
          <Text size="sm" c="dimmed">
            {p.side === 'supplier' ? t('detail.youSupply') : t('detail.theySupply')} {t('detail.pricesIn', { currency: p.currency })}
          </Text>
        </div>
        <ContractFields value={form} onChange={setForm} readOnly={readOnly} />
        <div>
          <Text fw={500} size="sm" mb={6}>
            {t('detail.sharedOffers')}
          </Text>
          {p.side === 'supplier' ? (
            choices.data ? (
              <OfferPicker choices={choices.data} value={offers} onChange={setOffers} net={form.pricing === 'net'} readOnly={readOnly} />
            ) : (
              <Loader size="sm" />
            )
          ) : p.offers.length === 0 ? (
            <Text size="sm">{t('detail.noShared')}</Text>
          ) : (
            <Stack gap={4}>
              {p.offers.map((o) => (
                <Text key={o.experience_id} size="sm" data-testid="shared-offer">
                  {o.title}
                  {p.pricing === 'net' && (
                    <Text span c="dimmed" size="xs">
                      {' '}
                      · {t('detail.net', { rates: Object.values(o.net_rates).map((n) => formatMoney(n, p.currency)).join(', ') || t('detail.atRates') })}
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
                if ('data' in res) notifySuccess(t('detail.contractSaved'));
              }}
            >
              {t('detail.saveContract')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** /sales/partners/{id}: one partnership — its contract (the same for both sides), its status, and the supplier's API keys for it. */
export default function PartnerDetailPage() {
  const t = usePartnersT();
  const { partnerId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: p, isError } = usePartnershipQuery(partnerId, { skip: !partnerId });
  useEffect(() => {
    if (isError) navigate(PARTNERS_PATH, { replace: true });
  }, [isError, navigate]);
  if (!p) return <Loader />;
  const name = p.partner.name ?? p.partner.email ?? t('detail.partner');
  return (
    <Stack gap="md" maw={1100}>
      <Anchor component={Link} to={`${PARTNERS_PATH}${p.side === 'reseller' ? '?partner_type=Suppliers' : ''}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('detail.allPartners')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{name}</Title>
            <StatusBadge status={p.status} />
          </Group>
          <Text c="dimmed" size="sm">
            {p.side === 'supplier' ? t('detail.resellsYours') : t('detail.suppliesYou')}
            {p.partner.subdomain && ` · ${p.partner.subdomain}`}
            {p.pricing === 'commission' && ` · ${t('commission', { percent: percent(p.commission_bp) })}`}
            {` · ${t('detail.since', { date: formatDisplayDate(p.created_at, zone) })}`}
          </Text>
        </div>
        <StatusActions p={p} />
      </Group>
      {p.status === 'Invited' && (
        <Alert variant="light" color="blue">
          {p.can_respond ? t('detail.invitedYou') : p.partner.email && !p.partner.id ? t('detail.sentTo', { email: p.partner.email }) : t('detail.sent')}
        </Alert>
      )}
      {/* Keyed by the saved version: a save or the other side's change starts the form afresh. */}
      <Contract key={p.updated_at} p={p} />
      {p.side === 'supplier' && p.status !== 'Invited' && p.status !== 'Declined' && <ApiKeys p={p} />}
    </Stack>
  );
}
