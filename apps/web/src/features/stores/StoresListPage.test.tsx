import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TStore } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import { slugify } from './constants';
import StoresListPage from './StoresListPage';

/**
 * The stores list against a real HTTP server: the public page opens in a new tab, the
 * Active/Inactive filter lives in the address and reaches the API, and "Create store" suggests the
 * address from the name, shows the server's refusal on its field, and opens the new store's settings.
 */
const store = (id: string, name: string, slug: string, active: boolean, experience_count: number): TStore => ({
  id,
  name,
  slug,
  active,
  currency: 'CHF',
  logo: null,
  logo_url: null,
  primary_color: '#1c7ed6',
  intro: '',
  terms_url: '',
  contact_email: '',
  contact_phone: '',
  payment_options: ['pay_on_site'],
  embed_origins: [],
  notify_new_bookings: false,
  notify_email: '',
  waitlist_hold_minutes: 720,
  deposit: null,
  balance_reminder_days: 3,
  sells_vouchers: false, voucher_amounts: [5000], voucher_min: 0, voucher_max: 0,
  translations: {},
  experience_count,
  url: `https://demo.tourdesk.test/s/${slug}/`,
  created_at: '2026-03-02T09:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
});
const LAKE = store('00000000-0000-4000-8000-0000000000a1', 'Lake shop', 'lake', true, 3);
const WINTER = store('00000000-0000-4000-8000-0000000000a2', 'Winter shop', 'winter', false, 0);
const NEW_ID = '00000000-0000-4000-8000-0000000000a3';

// jsdom has no scrollIntoView; Mantine's Select scrolls its selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

let server: FastifyInstance;
let baseUrl: string;
const state = { queries: [] as Record<string, string>[], posts: [] as unknown[], added: [] as unknown[] };

beforeAll(async () => {
  server = Fastify();
  server.get('/api/stores/', async (req) => {
    const q = req.query as Record<string, string>;
    state.queries.push(q);
    const results = [LAKE, WINTER].filter((s) => (q.active ? String(s.active) === q.active : true)).filter((s) => !q.search || s.name.toLowerCase().includes(q.search.toLowerCase()));
    return { count: results.length, total_pages: 1, current_page_number: 1, next: null, previous: null, results };
  });
  server.post('/api/stores/', async (req, reply) => {
    const body = req.body as { name: string; slug: string };
    state.posts.push(body);
    if (body.slug === 'lake') return reply.status(409).send({ type: 'client_error', errors: [{ code: 'conflict', detail: 'Another store of yours has this address.', attr: 'slug' }] });
    return reply.status(201).send(store(NEW_ID, body.name, body.slug, true, 0));
  });
  server.post('/api/stores/:id/add-experience/', async (req, reply) => {
    state.added.push({ store: (req.params as { id: string }).id, ...(req.body as object) });
    return reply.status(204).send();
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { queries: [], posts: [], added: [] }));

function setup(path = '/sales/stores') {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: ['stores'], time_zone: 'Europe/Zurich' } }));
  return renderWithApp(<StoresListPage />, { store, path });
}

describe('StoresListPage', () => {
  it('lists each store with its public page (a new tab), address, offers, status and creation day', async () => {
    setup();
    const rows = await screen.findAllByTestId('store-row');
    expect(rows).toHaveLength(2);
    const lake = within(rows[0]!);
    expect(lake.getByRole('link', { name: 'Lake shop' })).toHaveAttribute('href', `/sales/stores/editor/${LAKE.id}/overview`);
    const publicPage = lake.getByRole('link', { name: /Lake shop: public page/ });
    expect(publicPage).toHaveAttribute('href', LAKE.url);
    expect(publicPage).toHaveAttribute('target', '_blank');
    expect(publicPage).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(lake.getByText('/s/lake/')).toBeInTheDocument();
    expect(lake.getByText('3')).toBeInTheDocument();
    expect(lake.getByText('Active')).toBeInTheDocument();
    expect(lake.getByText('02. March 2026')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText('2 stores')).toBeInTheDocument();
  });

  it('keeps the Active/Inactive filter in the address and sends it to the API; reset drops it', async () => {
    const { router } = setup('/sales/stores?page=2');
    await screen.findAllByTestId('store-row');
    await userEvent.click(screen.getAllByLabelText('Status filter').find((e) => e.tagName === 'INPUT')!);
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?active=false'));
    await waitFor(() => expect(screen.getAllByTestId('store-row')).toHaveLength(1));
    expect(screen.getByText('Winter shop')).toBeInTheDocument();
    expect(state.queries.at(-1)).toEqual({ page: '1', page_size: '25', active: 'false' });

    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.getAllByTestId('store-row')).toHaveLength(2));
  });

  it('creates a store: the address follows the name until it is edited, then the settings tab opens', async () => {
    const { router } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Create store' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create store' });
    const name = within(dialog).getByLabelText(/Name/);
    const address = within(dialog).getByLabelText(/Address/);
    await userEvent.type(name, 'Café Zürich Tours');
    expect(address).toHaveValue('cafe-zurich-tours');
    expect(within(dialog).getByText(/\/s\/cafe-zurich-tours\/$/)).toBeInTheDocument();
    await userEvent.clear(address);
    await userEvent.type(address, 'zurich');
    await userEvent.type(name, ' & Lake');
    expect(address).toHaveValue('zurich');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create store' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sales/stores/editor/${NEW_ID}/settings`));
    expect(state.posts).toEqual([{ name: 'Café Zürich Tours & Lake', slug: 'zurich' }]);
  });

  it('opened from an offer ("Create a store with this offer"): the dialog is open, and the new store shows the offer', async () => {
    const OFFER = '00000000-0000-4000-8000-0000000000e7';
    const { router } = setup(`/sales/stores?new=1&offer=${OFFER}`);
    const dialog = await screen.findByRole('dialog', { name: 'Create store' });
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Harbour tours');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create store' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sales/stores/editor/${NEW_ID}/store-products`));
    expect(state.added).toEqual([{ store: NEW_ID, experiences: [OFFER] }]);
  });

  it('closing that dialog leaves the list without it', async () => {
    const { router } = setup('/sales/stores?new=1&offer=00000000-0000-4000-8000-0000000000e7');
    await screen.findByRole('dialog', { name: 'Create store' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(state.added).toEqual([]);
  });

  it('checks the name and address before sending, and shows an address already taken on its field', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Create store' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create store' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create store' }));
    expect(await within(dialog).findByText('Give the store a name.')).toBeInTheDocument();
    const address = within(dialog).getByLabelText(/Address/);
    await userEvent.type(address, '-Lake-');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create store' }));
    expect(await within(dialog).findByText('Use lower-case letters, digits and hyphens (not at the start or end).')).toBeInTheDocument();
    expect(state.posts).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Lake again');
    await userEvent.clear(address);
    await userEvent.type(address, 'lake');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create store' }));
    expect(await within(dialog).findByText('Another store of yours has this address.')).toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(state.posts).toEqual([{ name: 'Lake again', slug: 'lake' }]);
  });
});

describe('slugify', () => {
  it('suggests lower-case ASCII words joined by single hyphens, at most 60 characters', () => {
    expect(slugify('  Café Zürich – Tours!  ')).toBe('cafe-zurich-tours');
    expect(slugify('Straße 42')).toBe('strasse-42');
    expect(slugify('---')).toBe('');
    expect(slugify('a'.repeat(59) + ' b c')).toBe('a'.repeat(59));
  });
});
