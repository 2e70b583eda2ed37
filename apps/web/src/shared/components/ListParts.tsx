import { Button, Group, Pagination, Select, Stack, Table, Text, TextInput, Title, type MantineBreakpoint, type TableProps } from '@mantine/core';
import { useCommonT } from '../i18n/common';
import { IconSearch } from '@tabler/icons-react';
import { PAGE_SIZE_OPTIONS } from '@tourdesk/contracts';
import type { ReactNode } from 'react';
import type { ListFilters } from '../hooks/use-list-filters';
import { ExportCsvButton } from './ExportCsvButton';

/** The row a list table shows when nothing matches its filters. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text c="dimmed">{children}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Under every list: how many there are, the spec's page sizes, and the pages. */
export function ListFooter({
  count,
  noun,
  countLabel,
  totalPages,
  filters,
}: {
  count?: number;
  /** The English noun ("booking" → "3 bookings"), for a list whose page has no texts of its own yet. */
  noun?: string;
  /** The count as the page's catalog says it (its ICU plural), in the user's language. */
  countLabel?: (count: number) => string;
  totalPages?: number;
  filters: ListFilters;
}) {
  const t = useCommonT();
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {count === undefined ? '' : countLabel ? countLabel(count) : noun ? `${count} ${noun}${count === 1 ? '' : 's'}` : t('list.count', { count })}
      </Text>
      <Group>
        <Select
          aria-label={t('list.pageSize')}
          data={PAGE_SIZE_OPTIONS.map(String)}
          value={String(filters.pageSize)}
          onChange={(v) => v && filters.setPageSize(Number(v))}
          w={90}
          allowDeselect={false}
        />
        <Pagination total={totalPages || 1} value={filters.page} onChange={filters.setPage} />
      </Group>
    </Group>
  );
}

export interface ListColumn {
  /** The header; leave it out for a column of actions (its header cell stays empty). */
  label?: ReactNode;
  align?: 'left' | 'right' | 'center';
  w?: number;
}

/**
 * Every list's table: scrolls sideways under `minWidth`, dims while a new page loads, names itself
 * for assistive technology (`label`), and says `empty` when the page came back with no row. The
 * rows are the caller's (`children`), one `<Table.Tr>` each.
 */
export function ListTable({
  label,
  columns,
  minWidth,
  fetching,
  rowCount,
  empty,
  visibleFrom,
  children,
  ...table
}: Omit<TableProps, 'children' | 'visibleFrom'> & {
  label: string;
  columns: ListColumn[];
  minWidth: number;
  fetching?: boolean;
  rowCount: number | undefined;
  empty: ReactNode;
  /** From which width the table shows, when the page shows its rows as cards on a phone. */
  visibleFrom?: MantineBreakpoint;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} visibleFrom={visibleFrom}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={label} style={{ opacity: fetching ? 0.6 : 1 }} {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => (
              <Table.Th key={i} ta={c.align} w={c.w}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowCount === 0 && <EmptyRow colSpan={columns.length}>{empty}</EmptyRow>}
          {children}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Every list page's frame, as the spec's lists behave: the title (with a line under it) and the
 * page's actions; what comes before the filters (`tabs`: the page's tabs, or a field such as the
 * bookings' check-in); the filters, which live in the address (`list`,
 * from useListFilters) — a search written after its pause, the page's own filters, "Reset filters"
 * (which keeps the page size) and what follows it; the list itself (`children`); and the footer
 * with the count, the page sizes 5/10/25/50 and the pages.
 */
export function ListPage({
  header,
  title,
  description,
  actions,
  csv,
  tabs,
  search,
  filters,
  afterFilters,
  list,
  count,
  noun,
  countLabel,
  totalPages,
  children,
}: {
  /** A header of the page's own (a section's title with its tabs) in place of title and actions. */
  header?: ReactNode;
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** The list's CSV (`{list}export.csv`), downloaded with the list's filters by "Export CSV" beside the actions. */
  csv?: { url: string; params: Record<string, string | number>; fallbackName: string };
  tabs?: ReactNode;
  search?: { label: string; placeholder: string };
  filters?: ReactNode;
  afterFilters?: ReactNode;
  list: ListFilters;
  count: number | undefined;
  noun?: string;
  countLabel?: (count: number) => string;
  totalPages: number | undefined;
  children: ReactNode;
}) {
  const t = useCommonT();
  return (
    <Stack gap="md">
      {header ?? (
        <Group justify="space-between">
          <div>
            <Title order={2}>{title}</Title>
            {description && (
              <Text c="dimmed" size="sm">
                {description}
              </Text>
            )}
          </div>
          {(actions || csv) && (
            <Group gap="xs">
              {csv && <ExportCsvButton {...csv} />}
              {actions}
            </Group>
          )}
        </Group>
      )}
      {tabs}
      <Group>
        {search && (
          <TextInput
            aria-label={search.label}
            placeholder={search.placeholder}
            leftSection={<IconSearch size={16} />}
            value={list.searchInput}
            onChange={(e) => list.setSearch(e.currentTarget.value)}
            w={{ base: '100%', xs: 280 }}
          />
        )}
        {filters}
        <Button variant="subtle" onClick={list.reset}>
          {t('list.resetFilters')}
        </Button>
        {afterFilters}
      </Group>
      {children}
      <ListFooter count={count} noun={noun} countLabel={countLabel} totalPages={totalPages} filters={list} />
    </Stack>
  );
}
