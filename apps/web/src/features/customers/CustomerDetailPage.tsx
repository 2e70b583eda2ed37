import { Anchor, Badge, Button, Card, Grid, Group, Loader, Modal, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { EmptyRow } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCustomerOrdersQuery, useCustomerQuery, useDeleteCustomerMutation } from './api';
import { CustomerForm } from './CustomerForm';
import { CUSTOMERS_LIST, fullName, ORDER_STATUS_COLOR, orderPath, PAYMENT_STATUS_COLOR } from './constants';
import { useCustomersT, useOrdersStatusT } from './texts';

const ORDERS_PAGE_SIZE = 10;

function Orders({ customer }: { customer: string }) {
  const t = useCustomersT();
  const status = useOrdersStatusT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const { data, isFetching } = useCustomerOrdersQuery({ customer, page, page_size: ORDERS_PAGE_SIZE });
  return (
    <Stack>
      <Title order={4}>{t('orders')}</Title>
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={t('ordersLabel')} style={{ opacity: isFetching ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('col.reference')}</Table.Th>
              <Table.Th>{t('col.created')}</Table.Th>
              <Table.Th ta="right">{t('col.total')}</Table.Th>
              <Table.Th>{t('col.payment')}</Table.Th>
              <Table.Th>{t('col.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.results.length === 0 && <EmptyRow colSpan={5}>{t('noOrder')}</EmptyRow>}
            {data?.results.map((o) => (
              <Table.Tr key={o.id} onClick={() => navigate(orderPath(o.id))} style={{ cursor: 'pointer' }}>
                <Table.Td>
                  <Anchor component={Link} to={orderPath(o.id)} ff="monospace" fw={500} style={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                    {o.reference}
                  </Anchor>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(o.created_at, zone)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(o.total, o.currency)}
                </Table.Td>
                <Table.Td>
                  <Badge color={PAYMENT_STATUS_COLOR[o.payment_status]} variant="light">
                    {status(`payment.${o.payment_status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Badge color={ORDER_STATUS_COLOR[o.status]} variant="light">
                    {status(`orderStatus.${o.status}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {(data?.total_pages ?? 1) > 1 && <Pagination total={data?.total_pages ?? 1} value={page} onChange={setPage} />}
    </Stack>
  );
}

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Group justify="space-between" wrap="nowrap" align="flex-start">
    <Text size="sm" c="dimmed">
      {label}
    </Text>
    <Text size="sm" ta="right" style={{ wordBreak: 'break-word' }}>
      {children}
    </Text>
  </Group>
);

/** /customers/{id}: one customer — contact, consent, notes, and their orders. */
export default function CustomerDetailPage() {
  const t = useCustomersT();
  const { customerId = '' } = useParams();
  const navigate = useNavigate();
  const { data: customer, isError } = useCustomerQuery(customerId, { skip: !customerId });
  const [remove] = useDeleteCustomerMutation();
  const [editing, setEditing] = useState(false);
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  useEffect(() => {
    if (isError) navigate(CUSTOMERS_LIST, { replace: true });
  }, [isError, navigate]);
  if (!customer) return <Loader />;
  const name = fullName(customer);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={CUSTOMERS_LIST} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('all')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{name}</Title>
          <Text c="dimmed" size="sm">
            {customer.email}
          </Text>
        </div>
        <Group>
          <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
            {t('edit')}
          </Button>
          <ConfirmButton
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            title={t('deleteTitle', { name })}
            message={customer.orders > 0 ? t('deleteHasOrders', { name, count: customer.orders }) : t('deleteMessage')}
            confirmLabel={t('deleteConfirm')}
            onConfirm={async () => {
              const res = await remove(customer.id);
              if ('error' in res) return false;
              notifySuccess(t('deleted', { name }));
              navigate(CUSTOMERS_LIST, { replace: true });
              return true;
            }}
          >
            {t('delete')}
          </ConfirmButton>
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <Stack>
            <Card withBorder padding="lg" aria-label={t('contact')}>
              <Title order={4} mb="sm">
                {t('contact')}
              </Title>
              <Stack gap={6}>
                <Field label={t('email')}>{customer.email}</Field>
                <Field label={t('phone')}>{customer.phone || '—'}</Field>
                <Field label={t('country')}>{customer.country ?? '—'}</Field>
                {customer.company && <Field label={t('company')}>{customer.company}</Field>}
                {customer.address && <Field label={t('address')}>{customer.address}</Field>}
                {customer.vat_number && <Field label={t('vatNumber')}>{customer.vat_number}</Field>}
                <Field label={t('marketingEmails')}>{customer.marketing_consent ? t('agreed') : t('notAgreed')}</Field>
                <Field label={t('since')}>{formatDisplayDate(customer.created_at, zone)}</Field>
              </Stack>
            </Card>
            <Card withBorder padding="lg" aria-label={t('spending')}>
              <Title order={4} mb="sm">
                {t('spending')}
              </Title>
              <Stack gap={6}>
                <Field label={t('orders')}>{customer.orders}</Field>
                <Field label={t('totalSpent')}>{formatMoney(customer.total_spent, customer.currency)}</Field>
              </Stack>
            </Card>
            <Card withBorder padding="lg" aria-label={t('notes')}>
              <Title order={4} mb="sm">
                {t('notes')}
              </Title>
              <Text size="sm" c={customer.notes ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
                {customer.notes || t('noNotes')}
              </Text>
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <Orders customer={customer.id} />
        </Grid.Col>
      </Grid>
      <Modal opened={editing} onClose={() => setEditing(false)} title={t('editCustomer')} size="lg">
        {editing && <CustomerForm customer={customer} onCancel={() => setEditing(false)} onDone={() => setEditing(false)} />}
      </Modal>
    </Stack>
  );
}
