import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZLocationList } from '@tourdesk/contracts';
import { createTestApp, type TestApp } from './harness';
import { Browser, BASE } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Places for meeting points: autocomplete and forward geocoding from the embedded towns and cities
 * (no network), and from a geocoder speaking Photon's API when one is configured — a local stand-in
 * here, which also fails once to show that the embedded places answer then.
 */
let sink: MailSink;
let plain: TestApp;
let withGeocoder: TestApp;
let geocoder: Server;
let geocoderFails = false;
const asked: string[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  geocoder = createServer((req, res) => {
    const url = new URL(req.url!, 'http://geocoder');
    asked.push(url.searchParams.get('q') ?? '');
    if (geocoderFails || url.pathname !== '/api') {
      res.writeHead(500).end('down');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [8.3151, 47.0466] }, properties: { name: 'Lido Luzern', street: 'Lidostrasse', housenumber: '6a', postcode: '6006', city: 'Luzern', country: 'Switzerland', countrycode: 'ch' } }],
      }),
    );
  });
  await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
  const port = (geocoder.address() as AddressInfo).port;
  plain = await createTestApp({ env: { SMTP_URL: sink.url } });
  withGeocoder = await createTestApp({ env: { SMTP_URL: sink.url, GEOCODER_URL: `http://127.0.0.1:${port}`, MAP_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png' } });
});
afterAll(async () => {
  await plain?.close();
  await withGeocoder?.close();
  await sink?.close();
  await new Promise((r) => geocoder?.close(r));
});

describe('places from the embedded data set', () => {
  it('completes towns and cities as typed, accents or not, the exact name first', async () => {
    const owner = await createOrganisation(plain.app, sink, { subdomain: 'places' });
    const luz = await owner.get('/api/locations/autocomplete/?q=luz&limit=8');
    expect(luz.statusCode, luz.body).toBe(200);
    const labels = ZLocationList.parse(luz.json()).results.map((r) => r.label);
    expect(labels).toContain('Luzern (LU), Switzerland');
    const zurich = (await owner.get('/api/locations/autocomplete/?q=zurich&limit=3')).json().results;
    expect(zurich[0]).toMatchObject({ name: 'Zürich', country: 'CH', source: 'embedded' });
    expect(zurich[0].latitude).toBeCloseTo(47.37, 1);
    expect((await owner.get('/api/locations/autocomplete/?q=a')).json().results).toEqual([]);
  });

  it('finds the town an address names, in the country it names', async () => {
    const owner = await createOrganisation(plain.app, sink, { subdomain: 'geocode' });
    const found = (await owner.get(`/api/locations/forward-geocode/?q=${encodeURIComponent('Höheweg 37, 3800 Interlaken, Switzerland')}`)).json().results;
    expect(found).toEqual([expect.objectContaining({ name: 'Interlaken', country: 'CH', source: 'embedded' })]);
    expect(found[0].latitude).toBeCloseTo(46.68, 1);
    expect((await owner.get(`/api/locations/forward-geocode/?q=${encodeURIComponent('Nowhere street 1, 9999 Qqqqq')}`)).json().results).toEqual([]);
  });

  it('refuses bad input, and roles that do not make meeting points', async () => {
    const owner = await createOrganisation(plain.app, sink, { subdomain: 'placerole' });
    expect((await owner.get('/api/locations/autocomplete/?q=')).statusCode).toBe(400);
    expect((await owner.get('/api/locations/autocomplete/?q=bern&limit=99')).statusCode).toBe(400);
    const viewOnly = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
    const { member } = await inviteMember(plain.app, sink, owner, 'placerole', 'guide@placerole.test', viewOnly);
    expect((await member.get('/api/locations/autocomplete/?q=bern')).statusCode).toBe(403);
    expect((await new Browser(plain.app, BASE).get('/api/public-config/')).json().map_tile_url).toBeNull();
  });
});

describe('a configured geocoder', () => {
  it('answers with streets, and the embedded places answer when it fails', async () => {
    const owner = await createOrganisation(withGeocoder.app, sink, { subdomain: 'photon' });
    const res = (await owner.get('/api/locations/autocomplete/?q=lidostrasse%20luzern')).json().results;
    expect(res).toEqual([{ label: 'Lido Luzern, Lidostrasse 6a, 6006 Luzern, Switzerland', name: 'Lido Luzern', country: 'CH', latitude: 47.0466, longitude: 8.3151, source: 'geocoder' }]);
    expect(asked).toContain('lidostrasse luzern');
    geocoderFails = true;
    try {
      const fallback = (await owner.get(`/api/locations/forward-geocode/?q=${encodeURIComponent('Lidostrasse 6a, 6006 Luzern')}`)).json().results;
      expect(fallback).toEqual([expect.objectContaining({ name: 'Luzern', source: 'embedded' })]);
    } finally {
      geocoderFails = false;
    }
    expect((await new Browser(withGeocoder.app, BASE).get('/api/public-config/')).json().map_tile_url).toBe('https://tiles.example/{z}/{x}/{y}.png');
  });
});
