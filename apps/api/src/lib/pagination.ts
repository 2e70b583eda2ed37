import type { FastifyRequest } from 'fastify';
import type { TPaginated, TPaginationQuery } from '@tourdesk/contracts';
import { AppError } from './errors';

/**
 * Pages a list in SQL: one COUNT and one LIMIT/OFFSET query, both scoped and indexed by the
 * caller. A page past the end answers 404, as Django REST framework does.
 */
export async function paginate<T>(
  request: FastifyRequest,
  { page, page_size }: TPaginationQuery,
  count: () => Promise<number>,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
): Promise<TPaginated<T>> {
  const total = await count();
  const totalPages = Math.ceil(total / page_size);
  if (page > Math.max(totalPages, 1)) {
    throw new AppError('not_found', 'Invalid page.', 'page');
  }
  const results = total === 0 ? [] : await fetchPage(page_size, (page - 1) * page_size);
  return {
    count: total,
    total_pages: totalPages,
    current_page_number: page,
    next: page < totalPages ? pageUrl(request, page + 1) : null,
    previous: page > 1 ? pageUrl(request, page - 1) : null,
    results,
  };
}

function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}
