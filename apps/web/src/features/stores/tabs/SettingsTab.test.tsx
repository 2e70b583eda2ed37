import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TStore } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../../shared/auth/auth-slice';
import { makeStore } from '../../../shared/store';
import { renderWithApp } from '../../../test/render';
import { useStoreQuery } from '../api';
import { SettingsTab } from './SettingsTab';

/**
 * The store's settings form against a real HTTP server: every field is checked before anything is
 * sent (the contract's rules and the new-booking address), the embedding sites are checked as
 * they are added, a save sends every field, and the server's field errors land on their field.
 */
const STORE: TStore = {
  id: '00000000-0000-4000-8000-0000000000b1',
  name: 'Lake shop',
  slug: 'lake',
  active: true,
  currency: 'CHF',
  logo: null,
  logo_url: null,
  primary_color: '#1c7ed6',
  intro: 'Boats and hikes.',
  terms_url: '',
  contact_email: 'hello@demo.tourdesk.test',
  contact_phone: '',
  payment_options: ['pay_on_site'],
  embed_origins: ['https://www.lake.test'],
  notify_new_bookings: false,
  notify_email: '',
  waitlist_hold_minutes: 720,
  deposit: null,
  balance_reminder_days: 3,
  sells_vouchers: false, voucher_amounts: [5000], voucher_min: 0, voucher_max: 0,
  translations: {},
  experience_count: 2,
  url: 'https://demo.tourdesk.test/s/lake/',
  created_at: '2026-03-02T09:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
};

let server: FastifyInstance;
let baseUrl: string;
const state = { puts: [] as Record<string, unknown>[], store: STORE };

beforeAll(async () => {
  server = Fastify();
  server.get(`/api/stores/${STORE.id}/`, async () => state.store);
  server.put(`/api/stores/${STORE.id}/`, async (req, reply) => {
    const body = req.body as Record<string, unknown>;
    state.puts.push(body);
    if (body.slug === 'taken') return reply.status(409).send({ type: 'client_error', errors: [{ code: 'conflict', detail: 'Another store of yours has this address.', attr: 'slug' }] });
    state.store = { ...state.store, ...body, url: `https://demo.tourdesk.test/s/${String(body.slug)}/` };
    return state.store;
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { puts: [], store: STORE }));

/** As the editor does: the tab gets the store from the cache, which a save updates. */
function Harness() {
  const { data } = useStoreQuery(STORE.id);
  return data ? <SettingsTab store={data} /> : null;
}

function setup(languages: Language[] = ['en']) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: ['stores'], languages } }));
  return renderWithApp(<Harness />, { store, path: `/sales/stores/editor/${STORE.id}/settings` });
}

const form = () => within(screen.getByRole('form', { name: 'Store settings' }));
const save = () => userEvent.click(form().getByRole('button', { name: 'Save' }));

describe('the store settings form', () => {
  it('shows the store, the full address of its page, and Save only with changes', async () => {
    setup();
    await screen.findByRole('form', { name: 'Store settings' });
    expect(form().getByLabelText(/Name/)).toHaveValue('Lake shop');
    expect(form().getByText('Customers find the store at https://demo.tourdesk.test/s/lake/')).toBeInTheDocument();
    expect(form().getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(form().getByLabelText(/Address/), '-side');
    expect(form().getByText('Customers find the store at https://demo.tourdesk.test/s/lake-side/')).toBeInTheDocument();
    expect(form().getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('checks every field before sending anything', async () => {
    setup();
    await screen.findByRole('form', { name: 'Store settings' });
    await userEvent.clear(form().getByLabelText(/Name/));
    await userEvent.clear(form().getByLabelText(/Address/));
    await userEvent.type(form().getByLabelText(/Address/), 'Lake Shop');
    await userEvent.type(form().getByLabelText('Terms and conditions'), 'terms.html');
    await userEvent.clear(form().getByLabelText('Contact e-mail'));
    await userEvent.type(form().getByLabelText('Contact e-mail'), 'hello@');
    await userEvent.click(form().getByLabelText('Reserve now, pay on site'));
    await userEvent.click(form().getByLabelText('E-mail each new booking'));
    await save();
    expect(await form().findByText('Give the store a name.')).toBeInTheDocument();
    expect(form().getByText('Use lower-case letters, digits and hyphens (not at the start or end).')).toBeInTheDocument();
    expect(form().getByText('Enter a full address starting with https:// (or http://).')).toBeInTheDocument();
    expect(form().getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(form().getByText('Offer at least one way to pay.')).toBeInTheDocument();
    expect(form().getByText('Say where the new-booking e-mails go.')).toBeInTheDocument();
    expect(form().getByLabelText(/Address/)).toHaveAttribute('aria-invalid', 'true');
    expect(state.puts).toEqual([]);
  });

  it('checks each site that may embed the store as it is added, and removes one with its button', async () => {
    setup();
    await screen.findByRole('form', { name: 'Store settings' });
    const site = form().getByLabelText('Site to add');
    await userEvent.type(site, 'www.example.com{Enter}');
    expect(await form().findByText('A site is written as its origin, such as https://www.example.com.')).toBeInTheDocument();
    await userEvent.clear(site);
    await userEvent.type(site, 'https://www.lake.test');
    await userEvent.click(form().getByRole('button', { name: 'Add site' }));
    expect(form().getByText('This site is in the list already.')).toBeInTheDocument();
    await userEvent.clear(site);
    await userEvent.type(site, 'HTTPS://Shop.Example.com:8443{Enter}');
    expect(site).toHaveValue('');
    await userEvent.click(form().getByRole('button', { name: 'Remove https://www.lake.test' }));
    const list = form().getByRole('list', { name: 'Sites that may embed the store' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['https://shop.example.com:8443']);
    await save();
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]!.embed_origins).toEqual(['https://shop.example.com:8443']);
  });

  it('saves every field (the name trimmed); the server’s refusal of the address lands on its field', async () => {
    setup();
    await screen.findByRole('form', { name: 'Store settings' });
    await userEvent.clear(form().getByLabelText(/Name/));
    await userEvent.type(form().getByLabelText(/Name/), '  Lakeside shop ');
    const intro = form().getByLabelText('Introduction');
    await userEvent.clear(intro);
    await userEvent.type(intro, '  Boats, hikes and fondue.  ');
    await userEvent.click(form().getByLabelText('E-mail each new booking'));
    await userEvent.type(form().getByLabelText(/Send them to/), 'desk@demo.tourdesk.test');
    // Waiting lists: offered seats held two hours (kept in minutes).
    await userEvent.clear(form().getByLabelText(/Hold offered seats for/));
    await userEvent.type(form().getByLabelText(/Hold offered seats for/), '2');
    // Deposits: 25 % online, the rest 5 days before the departure, reminded 4 days before that.
    // Mantine's combobox scrolls its chosen option into view, which jsdom does not do.
    Element.prototype.scrollIntoView ??= () => undefined;
    const select = (label: string) => form().getAllByLabelText(label).find((e) => e.tagName === 'INPUT')!;
    await userEvent.click(select('Deposit when paid online'));
    await userEvent.click(await screen.findByRole('option', { name: 'A percentage', hidden: true }));
    await userEvent.clear(form().getByLabelText('Deposit'));
    await userEvent.type(form().getByLabelText('Deposit'), '25');
    await userEvent.click(select('The rest is due'));
    await userEvent.click(await screen.findByRole('option', { name: 'Days before the departure', hidden: true }));
    await userEvent.clear(form().getByLabelText('Days before'));
    await userEvent.type(form().getByLabelText('Days before'), '5');
    await userEvent.clear(form().getByLabelText(/Remind the customer of the balance/));
    await userEvent.type(form().getByLabelText(/Remind the customer of the balance/), '4');
    await save();
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toEqual({
      name: 'Lakeside shop',
      slug: 'lake',
      active: true,
      currency: 'CHF',
      logo: null,
      primary_color: '#1c7ed6',
      intro: '  Boats, hikes and fondue.  ',
      terms_url: '',
      contact_email: 'hello@demo.tourdesk.test',
      contact_phone: '',
      payment_options: ['pay_on_site'],
      embed_origins: ['https://www.lake.test'],
      notify_new_bookings: true,
      notify_email: 'desk@demo.tourdesk.test',
      waitlist_hold_minutes: 120,
      deposit: { kind: 'percent', value: 2500, balance_due_days: 5 },
      balance_reminder_days: 4,
      sells_vouchers: false,
      voucher_amounts: [5000],
      voucher_min: 0,
      voucher_max: 0,
      translations: {},
    });
    await waitFor(() => expect(form().getByRole('button', { name: 'Save' })).toBeDisabled());

    const address = form().getByLabelText(/Address/);
    await userEvent.clear(address);
    await userEvent.type(address, 'taken');
    await save();
    expect(await form().findByText('Another store of yours has this address.')).toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(form().getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('takes the name and introduction per language the organisation sells in, saved with the store', async () => {
    state.store = { ...STORE, translations: { de: { name: 'Seeladen' } } };
    setup(['en', 'de']);
    await screen.findByRole('form', { name: 'Store settings' });
    expect(form().getByTestId('missing-de')).toHaveTextContent('1 missing');
    await userEvent.click(form().getByRole('button', { name: /Deutsch/ }));
    expect(form().getByLabelText('Name')).toHaveValue('Seeladen');
    const intro = form().getByLabelText('Introduction');
    expect(intro).toHaveAttribute('placeholder', 'Boats and hikes.');
    await userEvent.type(intro, 'Boote und Wanderungen.');
    expect(form().getByTestId('missing-de')).toHaveTextContent('complete');
    await save();
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toMatchObject({ name: 'Lake shop', intro: 'Boats and hikes.', translations: { de: { name: 'Seeladen', intro: 'Boote und Wanderungen.' } } });
  });
});
