import { Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useAllPricingRatesQuery, useCreateRateMutation, useExperiencesQuery, usePricingCategoriesQuery, useUpdateRateMutation } from './api';
import { editorPath } from './constants';
import { ExperiencesTabs } from './ExperiencesTabs';
import { MoneyField } from './MoneyField';
import { usePricingT } from './pricing-texts';

/** The matrix of experiences × pricing categories: every all-year retail price, edited in place. */
export default function PricingCataloguePage() {
  const t = usePricingT();
  const filters = useListFilters();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data: experiences, isFetching } = useExperiencesQuery({ ...filters.apiParams, ordering: 'title' });
  const { data: categories } = usePricingCategoriesQuery();
  const ids = (experiences?.results ?? []).map((e) => e.id);
  // Every rate of the offers on this page: 25 offers with several categories and seasons fill more than one page of rates.
  const { data: rates } = useAllPricingRatesQuery(ids.join(','), { skip: ids.length === 0 });
  const [create] = useCreateRateMutation();
  const [update] = useUpdateRateMutation();
  const cell = new Map(
    (rates ?? [])
      .filter((r) => !r.valid_from && !r.valid_to && r.weekdays.length === 0)
      .map((r) => [`${r.experience}|${r.pricing_category}`, r]),
  );
  const seasonal = new Set((rates ?? []).filter((r) => r.valid_from || r.valid_to || r.weekdays.length).map((r) => r.experience));

  return (
    <ListPage
      title={t('rates.title')}
      tabs={<ExperiencesTabs />}
      search={{ label: t('rates.search'), placeholder: t('rates.search') }}
      list={filters}
      count={experiences?.count}
      countLabel={(count) => t('rates.count', { count })}
      totalPages={experiences?.total_pages}
    >
      <ListTable
        label={t('rates.table')}
        minWidth={400 + (categories?.results.length ?? 0) * 150}
        fetching={isFetching}
        highlightOnHover={false}
        withColumnBorders
        columns={[{ label: t('rates.offer') }, ...(categories?.results ?? []).map((c) => ({ label: c.label }))]}
        rowCount={experiences?.results.length}
        empty={filters.search ? t('rates.noMatch') : t('rates.empty')}
      >
        {experiences?.results.map((e) => (
          <Table.Tr key={e.id}>
            <Table.Td>
              <Text component={Link} to={editorPath(e.id, 'pricing')} fw={500}>
                {e.title}
              </Text>
              {seasonal.has(e.id) && (
                <Text size="xs" c="dimmed">
                  {t('rates.seasonal')}
                </Text>
              )}
            </Table.Td>
            {categories?.results.map((c) => {
              const rate = cell.get(`${e.id}|${c.id}`);
              return (
                <Table.Td key={c.id} w={150}>
                  <MoneyField
                    label={t('rates.price', { offer: e.title, category: c.label })}
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
      </ListTable>
    </ListPage>
  );
}
