import { Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateRateMutation, useExperiencesQuery, usePricingCategoriesQuery, usePricingRatesQuery, useUpdateRateMutation } from './api';
import { editorPath } from './constants';
import { ExperiencesTabs } from './ExperiencesTabs';
import { MoneyField } from './MoneyField';

/** The matrix of experiences × pricing categories: every all-year retail price, edited in place. */
export default function PricingCataloguePage() {
  const filters = useListFilters();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data: experiences } = useExperiencesQuery({ ...filters.apiParams, page_size: 25, ordering: 'title' });
  const { data: categories } = usePricingCategoriesQuery();
  const ids = (experiences?.results ?? []).map((e) => e.id);
  const { data: rates } = usePricingRatesQuery({ experiences: ids.join(','), page_size: 50 }, { skip: ids.length === 0 });
  const [create] = useCreateRateMutation();
  const [update] = useUpdateRateMutation();
  const cell = new Map(
    (rates?.results ?? [])
      .filter((r) => !r.valid_from && !r.valid_to && r.weekdays.length === 0)
      .map((r) => [`${r.experience}|${r.pricing_category}`, r]),
  );
  const seasonal = new Set((rates?.results ?? []).filter((r) => r.valid_from || r.valid_to || r.weekdays.length).map((r) => r.experience));

  return (
    <Stack gap="md">
      <Title order={2}>Pricing rates</Title>
      <ExperiencesTabs />
      <TextInput aria-label="Search offers" placeholder="Search offers" leftSection={<IconSearch size={16} />} value={filters.searchInput} onChange={(e) => filters.setSearch(e.currentTarget.value)} w={280} />
      <Table.ScrollContainer minWidth={400 + (categories?.results.length ?? 0) * 150}>
        <Table aria-label="Pricing catalogue" withColumnBorders>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Offer</Table.Th>
              {categories?.results.map((c) => (
                <Table.Th key={c.id}>{c.label}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {experiences?.results.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>
                  <Text component={Link} to={editorPath(e.id, 'pricing')} fw={500}>
                    {e.title}
                  </Text>
                  {seasonal.has(e.id) && (
                    <Text size="xs" c="dimmed">
                      + seasonal prices
                    </Text>
                  )}
                </Table.Td>
                {categories?.results.map((c) => {
                  const rate = cell.get(`${e.id}|${c.id}`);
                  return (
                    <Table.Td key={c.id} w={150}>
                      <MoneyField
                        label={`${e.title} ${c.label} price`}
                        currency={currency}
                        minor={rate?.retail_price ?? null}
                        onCommit={async (minor) => {
                          if (minor === null) return false;
                          const res = rate ? await update({ id: rate.id, retail_price: minor }) : await create({ experience: e.id, pricing_category: c.id, retail_price: minor });
                          if (!('error' in res)) notifySuccess(`${e.title}, ${c.label}: ${formatMoney(minor, currency)}`);
                          return !('error' in res);
                        }}
                      />
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="flex-end">
        <Pagination total={experiences?.total_pages || 1} value={filters.page} onChange={filters.setPage} />
      </Group>
    </Stack>
  );
}
