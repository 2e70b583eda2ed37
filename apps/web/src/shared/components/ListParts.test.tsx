import { Table } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { useListFilters } from '../hooks/use-list-filters';
import { ListPage, ListTable } from './ListParts';

function Page({ rows }: { rows: string[] | undefined }) {
  const filters = useListFilters();
  return (
    <ListPage title="Things" search={{ label: 'Search things', placeholder: 'Name' }} list={filters} count={rows?.length} noun="thing" totalPages={1}>
      <ListTable label="Things" minWidth={300} columns={[{ label: 'Name' }, { label: 'Price', align: 'right' }, {}]} rowCount={rows?.length} empty="No thing matches these filters.">
        {rows?.map((r) => (
          <Table.Tr key={r}>
            <Table.Td>{r}</Table.Td>
            <Table.Td>1</Table.Td>
            <Table.Td />
          </Table.Tr>
        ))}
      </ListTable>
    </ListPage>
  );
}

describe('the list page and its table', () => {
  it('names the table, heads its columns, counts the rows, and says so when there is none', () => {
    const { unmount } = renderWithApp(<Page rows={['Kayak', 'Canoe']} />);
    const table = screen.getByRole('table', { name: 'Things' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Price', '']);
    expect(table.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(screen.getByText('2 things')).toBeInTheDocument();
    expect(screen.queryByText('No thing matches these filters.')).toBeNull();
    unmount();
    renderWithApp(<Page rows={[]} />);
    expect(screen.getByRole('cell', { name: 'No thing matches these filters.' })).toHaveAttribute('colspan', '3');
    expect(screen.getByText('0 things')).toBeInTheDocument();
  });

  it('says nothing while the first page is loading', () => {
    renderWithApp(<Page rows={undefined} />);
    expect(screen.queryByText('No thing matches these filters.')).toBeNull();
  });

  it('resets every filter but the page size, as the spec says', async () => {
    const { router } = renderWithApp(<Page rows={['Kayak']} />, { path: '/things?search=kay&status=Active&pageSize=25&page=2' });
    expect(screen.getByRole('textbox', { name: 'Search things' })).toHaveValue('kay');
    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(router.state.location.search).toBe('?pageSize=25');
    expect(screen.getByRole('textbox', { name: 'Search things' })).toHaveValue('');
  });
});
