import { screen, waitFor } from '@testing-library/react';
import type { TPricingRate } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import PricingCataloguePage from './PricingCataloguePage';

/**
 * The pricing matrix reads every rate of the offers it shows, however many pages of 50 they fill:
 * here the all-year Adult price is on the second page, behind 50 seasonal prices.
 */
const KAYAK = '00000000-0000-4000-8000-0000000000e1';
const ADULT = '00000000-0000-4000-8000-0000000000c1';
const CHILD = '00000000-0000-4000-8000-0000000000c2';
const rate = (i: number, category: string, price: number, seasonal: boolean): TPricingRate => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  experience: KAYAK,
  pricing_category: category,
  retail_price: price,
  net_price: null,
  currency: 'CHF',
  valid_from: seasonal ? `2027-01-${String((i % 28) + 1).padStart(2, '0')}` : null,
  valid_to: seasonal ? `2027-01-${String((i % 28) + 1).padStart(2, '0')}` : null,
  weekdays: [],
});
const RATES = [...Array.from({ length: 50 }, (_, i) => rate(i + 1, CHILD, 1000 + i, true)), rate(99, ADULT, 4900, false)];

let server: FastifyInstance;
let baseUrl: string;
const pagesAsked: string[] = [];

beforeAll(async () => {
  server = Fastify();
  server.get('/api/experiences/', async () => ({
    count: 1,
    total_pages: 1,
    current_page_number: 1,
    next: null,
    previous: null,
    results: [{ id: KAYAK, status: 'Active', type: 'Ticket & Passes', title: 'Kayak', short_description: '', cover_url: null, from_price: 1000, currency: 'CHF', duration_minutes: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }],
  }));
  server.get('/api/pricing-categories/', async () => ({
    count: 2,
    total_pages: 1,
    current_page_number: 1,
    next: null,
    previous: null,
    results: [ADULT, CHILD].map((id, i) => ({ id, type: i ? 'Child' : 'Adult', label: i ? 'Child' : 'Adult', min_age: null, max_age: null, occupies_seat: true, created_at: '2026-01-01T00:00:00.000Z' })),
  }));
  server.get('/api/pricing-rates/', async (req) => {
    const q = req.query as Record<string, string>;
    const page = Number(q.page ?? 1);
    const size = Number(q.page_size ?? 25);
    pagesAsked.push(`${q.experiences}:${page}`);
    const results = RATES.slice((page - 1) * size, page * size);
    const total_pages = Math.ceil(RATES.length / size);
    return { count: RATES.length, total_pages, current_page_number: page, next: page < total_pages ? 'more' : null, previous: null, results };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

describe('PricingCataloguePage', () => {
  it('shows a price that is on the second page of rates, and marks the offer’s seasonal prices', async () => {
    const store = makeStore({ apiBaseUrl: baseUrl });
    store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', currency: 'CHF', active_subscription_features: ['experiences'], time_zone: 'Europe/Zurich' } }));
    renderWithApp(<PricingCataloguePage />, { store, path: '/products/experiences/pricing-catalogue' });
    await waitFor(() => expect(screen.getByLabelText('Kayak Adult price')).toHaveValue('49.00'));
    expect(screen.getByLabelText('Kayak Child price')).toHaveValue('');
    expect(screen.getByText('+ seasonal prices')).toBeInTheDocument();
    expect(pagesAsked).toEqual([`${KAYAK}:1`, `${KAYAK}:2`]);
    expect(screen.getByRole('table', { name: 'Pricing catalogue' })).toBeInTheDocument();
    expect(screen.getByText('1 offer')).toBeInTheDocument();
  });
});
