import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useListFilters } from './use-list-filters';

/** Renders the hook inside a real router and exposes the live query string. */
function setup(initial = '/orders/list') {
  let location = '';
  const result = renderHook(
    () => {
      location = useLocation().search;
      return useListFilters();
    },
    {
      wrapper: ({ children }: { children: ReactNode }) => {
        const router = createMemoryRouter([{ path: '*', element: children }], { initialEntries: [initial] });
        return <RouterProvider router={router} />;
      },
    },
  );
  return { ...result, query: () => new URLSearchParams(location) };
}

describe('useListFilters', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads filters, page and page size from the address', () => {
    const { result } = setup('/orders/list?status=Confirmed&page=3&pageSize=10&search=anna');
    expect(result.current.filters).toEqual({ status: 'Confirmed' });
    expect(result.current.page).toBe(3);
    expect(result.current.pageSize).toBe(10);
    expect(result.current.apiParams).toEqual({ page: 3, page_size: 10, search: 'anna', status: 'Confirmed' });
  });

  it('falls back to page 1 and the default size 25 for bad values', () => {
    const { result } = setup('/orders/list?page=-2&pageSize=7');
    expect(result.current.page).toBe(1);
    expect(result.current.pageSize).toBe(25);
  });

  it('drops the page when a filter changes', () => {
    const { result, query } = setup('/orders/list?page=4&pageSize=50');
    act(() => result.current.setFilter('status', 'Canceled'));
    expect(query().get('status')).toBe('Canceled');
    expect(query().has('page')).toBe(false);
    expect(query().get('pageSize')).toBe('50');
  });

  it('removes a filter set to "All" or empty', () => {
    const { result, query } = setup('/orders/list?status=Confirmed&store=s1');
    act(() => result.current.setFilter('status', 'All'));
    expect(query().has('status')).toBe(false);
    act(() => result.current.setFilter('store', ''));
    expect(query().has('store')).toBe(false);
  });

  it('keeps a filter chosen just before the search is written (the callbacks of the earlier render)', () => {
    const { result, query } = setup('/orders/list');
    // Both from the same render, as a fast user's keystroke can be handled before the page renders again.
    const { setFilter, setSearch } = result.current;
    act(() => {
      setFilter('status', 'Confirmed');
      setSearch('anna');
    });
    act(() => vi.advanceTimersByTime(500));
    expect(query().get('status')).toBe('Confirmed');
    expect(query().get('search')).toBe('anna');
  });

  it('writes the search term after a 500 ms pause, and drops the page', () => {
    const { result, query } = setup('/orders/list?page=2');
    act(() => result.current.setSearch('ma'));
    act(() => vi.advanceTimersByTime(300));
    act(() => result.current.setSearch('mar'));
    expect(result.current.searchInput).toBe('mar');
    act(() => vi.advanceTimersByTime(499));
    expect(query().has('search')).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(query().get('search')).toBe('mar');
    expect(query().has('page')).toBe(false);
  });

  it('resets every parameter except pageSize, and empties the search box', () => {
    const { result, query } = setup('/orders/list?status=Confirmed&page=2&pageSize=5&search=x');
    act(() => result.current.reset());
    expect([...query().keys()]).toEqual(['pageSize']);
    expect(result.current.searchInput).toBe('');
  });

  it('accepts only the page sizes 5, 10, 25 and 50', () => {
    const { result, query } = setup('/orders/list?page=3');
    act(() => result.current.setPageSize(10));
    expect(query().get('pageSize')).toBe('10');
    expect(query().has('page')).toBe(false);
    act(() => result.current.setPageSize(13));
    expect(query().get('pageSize')).toBe('25');
  });

  it('writes page 1 as no page parameter', () => {
    const { result, query } = setup('/orders/list');
    act(() => result.current.setPage(3));
    expect(query().get('page')).toBe('3');
    act(() => result.current.setPage(1));
    expect(query().has('page')).toBe(false);
  });
});
