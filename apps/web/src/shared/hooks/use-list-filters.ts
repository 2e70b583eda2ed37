import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, SEARCH_DEBOUNCE_MS, type PageSize } from '@tourdesk/contracts';

/** Query parameters with a meaning of their own; every other one is a filter. */
const PAGE = 'page';
const PAGE_SIZE = 'pageSize';
const SEARCH = 'search';
const RESERVED = new Set([PAGE, PAGE_SIZE, SEARCH]);

const isCleared = (value: string | null | undefined) => value === undefined || value === null || value === '' || value === 'All';

function parsePageSize(raw: string | null): PageSize {
  const n = Number(raw);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(n) ? (n as PageSize) : DEFAULT_PAGE_SIZE;
}

function parsePage(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export interface ListFilters {
  /** Filters from the address (everything but page, pageSize and search). */
  filters: Record<string, string>;
  page: number;
  pageSize: PageSize;
  /** The search term in the address (debounced). */
  search: string;
  /** What the search box shows right now (not yet debounced). */
  searchInput: string;
  setFilter(name: string, value: string | null | undefined): void;
  setSearch(term: string): void;
  setPage(page: number): void;
  setPageSize(size: number): void;
  reset(): void;
  /** The parameters for the list endpoint: page, page_size, search and the filters. */
  apiParams: Record<string, string | number>;
}

/**
 * The list-filter behaviour of the spec: filters live in the query string; changing a filter
 * drops `page`; "All" or empty removes it; the search term is written to `search` after a
 * 500 ms pause; reset clears every parameter except `pageSize`; page sizes 5, 10, 25, 50.
 */
export function useListFilters(): ListFilters {
  const [params, setParams] = useSearchParams();
  const search = params.get(SEARCH) ?? '';
  const [searchInput, setSearchInput] = useState(search);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // When the address changes under us (reset, back button), the box follows it.
  const lastWritten = useRef(search);
  useEffect(() => {
    if (search !== lastWritten.current) {
      lastWritten.current = search;
      setSearchInput(search);
    }
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The latest parameters, written or read: React Router's functional update starts from the
  // render's own (stale in the search's 500 ms timer, which then dropped a filter chosen meanwhile).
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = useCallback(
    (mutate: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(latest.current);
      mutate(next);
      latest.current = next;
      setParams(next);
    },
    [setParams],
  );

  const setFilter = useCallback(
    (name: string, value: string | null | undefined) =>
      update((next) => {
        if (isCleared(value)) next.delete(name);
        else next.set(name, value as string);
        next.delete(PAGE);
      }),
    [update],
  );

  const setSearch = useCallback(
    (term: string) => {
      setSearchInput(term);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const value = term.trim();
        lastWritten.current = value;
        update((next) => {
          if (value === '') next.delete(SEARCH);
          else next.set(SEARCH, value);
          next.delete(PAGE);
        });
      }, SEARCH_DEBOUNCE_MS);
    },
    [update],
  );

  const setPage = useCallback(
    (page: number) =>
      update((next) => {
        if (page <= 1) next.delete(PAGE);
        else next.set(PAGE, String(page));
      }),
    [update],
  );

  const setPageSize = useCallback(
    (size: number) =>
      update((next) => {
        next.set(PAGE_SIZE, String(parsePageSize(String(size))));
        next.delete(PAGE);
      }),
    [update],
  );

  const reset = useCallback(() => {
    clearTimeout(timer.current);
    update((next) => {
      for (const key of [...next.keys()]) if (key !== PAGE_SIZE) next.delete(key);
    });
  }, [update]);

  const page = parsePage(params.get(PAGE));
  const pageSize = parsePageSize(params.get(PAGE_SIZE));
  const filters = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [key, value] of params) if (!RESERVED.has(key) && !isCleared(value)) out[key] = value;
    return out;
  }, [params]);
  const apiParams = useMemo(
    () => ({ page, page_size: pageSize, ...(search ? { search } : {}), ...filters }),
    [page, pageSize, search, filters],
  );

  return { filters, page, pageSize, search, searchInput, setFilter, setSearch, setPage, setPageSize, reset, apiParams };
}
