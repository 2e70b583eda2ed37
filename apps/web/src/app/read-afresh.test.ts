import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStore } from '../shared/store';
import { dashboardApi } from '../features/dashboard/api';
import { manifestsApi } from '../features/manifests/api';
import { bookingsApi } from '../features/bookings/api';

// The figures the server answers: a sale made elsewhere (the web store, a partner) changes them.
let seatsLeft = 10;
let server: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  server = Fastify();
  server.get('/api/*', async () => ({ seats_left: seatsLeft }));
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

const leave = () => new Promise((resolve) => setTimeout(resolve, 20));

// Each page that shows seats or bookings, by the call it reads them with.
const pages = {
  'capacity by date': () => bookingsApi.endpoints.capacityByDate.initiate('2026-12-01'),
  'capacity calendar': () => bookingsApi.endpoints.capacityCalendar.initiate({ from: '2026-12-01', to: '2026-12-31' }),
  'the counter’s departures': () => bookingsApi.endpoints.slots.initiate({ experience: 'e', from: '2026-12-01', to: '2026-12-31' }),
  'a partner’s departures at the counter': () => bookingsApi.endpoints.counterSlots.initiate({ experience: 'e', from: '2026-12-01', to: '2026-12-31' }),
  bookings: () => bookingsApi.endpoints.bookings.initiate({ page: 1 }),
  'a departure’s manifest': () => manifestsApi.endpoints.departureManifest.initiate('s'),
  'a day’s manifests': () => manifestsApi.endpoints.dayManifests.initiate('2026-12-01'),
  dashboard: () => dashboardApi.endpoints.getDashboard.initiate(),
};

describe('pages that show seats, opened again after a sale elsewhere', () => {
  for (const [page, open] of Object.entries(pages)) {
    it(`${page}: shows the new figures, never the ones from before the sale first`, async () => {
      seatsLeft = 10;
      const store = makeStore({ apiBaseUrl: baseUrl });
      const first = store.dispatch(open() as never) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
      expect(await first.unwrap()).toEqual({ seats_left: 10 });
      first.unsubscribe();
      await leave();

      seatsLeft = 9;
      const seen: unknown[] = [];
      const unwatch = store.subscribe(() => {
        const queries = Object.values(store.getState().api.queries);
        for (const q of queries) if (q?.data) seen.push(q.data);
      });
      const again = store.dispatch(open() as never) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
      expect(await again.unwrap()).toEqual({ seats_left: 9 });
      unwatch();
      again.unsubscribe();
      expect(seen).not.toContainEqual({ seats_left: 10 });
    });
  }
});
