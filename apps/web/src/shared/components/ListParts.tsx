import { Group, Pagination, Select, Table, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS } from '@tourdesk/contracts';
import type { ReactNode } from 'react';
import type { ListFilters } from '../hooks/use-list-filters';

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
export function ListFooter({ count, noun, totalPages, filters }: { count?: number; noun: string; totalPages?: number; filters: ListFilters }) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {count === undefined ? '' : `${count} ${noun}${count === 1 ? '' : 's'}`}
      </Text>
      <Group>
        <Select
          aria-label="Page size"
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
