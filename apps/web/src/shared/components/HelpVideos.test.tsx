import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { THelpVideo } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUser } from '../auth/auth-slice';
import { makeStore } from '../store';
import { renderWithApp } from '../../test/render';
import { HelpVideos } from './HelpVideos';

/**
 * A page's help videos against a real HTTP server: each opens on its platform in a new tab, and an
 * address that is not http(s) (stored before the API refused other schemes) is shown, never linked.
 */
const video = (id: string, url: string, title: string): THelpVideo => ({ id, url, title, provider: 'YouTube', thumbnail_url: null, position: 0, notice: null, topic: 'orders' });
const VIDEOS = [
  video('00000000-0000-4000-8000-0000000000b1', 'https://www.youtube.com/watch?v=abc', 'Taking an order'),
  video('00000000-0000-4000-8000-0000000000b2', 'javascript:alert(document.cookie)', 'Old script video'),
  video('00000000-0000-4000-8000-0000000000b3', 'data:text/html,<script>alert(1)</script>', 'Old data video'),
];

let server: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  server = Fastify();
  server.get('/api/help-videos/', async () => ({ count: VIDEOS.length, total_pages: 1, current_page_number: 1, next: null, previous: null, results: VIDEOS }));
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

describe('HelpVideos', () => {
  it('links http(s) videos in a new tab and never a javascript: or data: address', async () => {
    const store = makeStore({ apiBaseUrl: baseUrl });
    store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: [], time_zone: 'Europe/Zurich' } }));
    renderWithApp(<HelpVideos topic="orders" />, { store });
    await userEvent.click(await screen.findByRole('button', { name: 'Help videos (3)' }));
    const list = await screen.findByRole('list', { name: 'Help videos' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const link = within(items[0]!).getByRole('link', { name: /Taking an order/ });
    expect(link).toHaveAttribute('href', 'https://www.youtube.com/watch?v=abc');
    expect(link).toHaveAttribute('target', '_blank');
    for (const item of items.slice(1)) {
      expect(within(item).queryByRole('link')).toBeNull();
      expect(item.querySelector('a')).toBeNull();
    }
    expect(within(items[1]!).getByText('Old script video')).toBeInTheDocument();
    expect(document.querySelectorAll('a[href^="javascript:"], a[href^="data:"]')).toHaveLength(0);
  });
});
