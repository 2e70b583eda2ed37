import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Help videos: the organisation's own videos, each for the page where it helps, titled from the
 * video platform's oEmbed answer (a local stand-in here) and kept even when it cannot be reached.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guide: Browser;
let other: Browser;
let oembed: Server;
const asked: string[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  oembed = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x').searchParams.get('url') ?? '';
    asked.push(url);
    if (url.includes('private')) {
      res.statusCode = 401;
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ title: `Check-in in 90 seconds (${url.split('=').pop()})`, thumbnail_url: 'https://img.example/check-in.jpg', provider_name: 'YouTube' }));
  });
  await new Promise<void>((r) => oembed.listen(0, '127.0.0.1', r));
  const port = (oembed.address() as { port: number }).port;
  t = await createTestApp({ env: { SMTP_URL: sink.url, OEMBED_ENDPOINT: `http://127.0.0.1:${port}/oembed?url={url}` } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'helpful' });
  other = await createOrganisation(t.app, sink, { subdomain: 'unhelpful' });
  const role = (await owner.post('/api/roles/', { name: 'Door', permission_sets: ['view_experiences'] })).json().id;
  guide = (await inviteMember(t.app, sink, owner, 'helpful', 'door@helpful.test', role)).member;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
  oembed?.close();
});

describe('help videos', () => {
  it('takes the title and thumbnail from the platform, keeps them per page in order, and shows them to every member', async () => {
    const first = await owner.post('/api/help-videos/', { url: 'https://www.youtube.com/watch?v=scan1', topic: 'check-in' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ topic: 'check-in', provider: 'YouTube', title: 'Check-in in 90 seconds (scan1)', thumbnail_url: 'https://img.example/check-in.jpg', position: 0, notice: null });
    expect(asked).toContain('https://www.youtube.com/watch?v=scan1');
    // A title typed by the owner wins over the platform's.
    const second = await owner.post('/api/help-videos/', { url: 'https://www.youtube.com/watch?v=scan2', topic: 'check-in', title: 'Our door routine' });
    expect(second.json()).toMatchObject({ title: 'Our door routine', position: 1 });
    await owner.post('/api/help-videos/', { url: 'https://www.youtube.com/watch?v=dash', topic: 'dashboard' });

    const forCheckIn = await guide.get('/api/help-videos/?topic=check-in');
    expect(forCheckIn.statusCode, forCheckIn.body).toBe(200);
    expect(forCheckIn.json().results.map((v: { title: string }) => v.title)).toEqual(['Check-in in 90 seconds (scan1)', 'Our door routine']);
    expect((await guide.get('/api/help-videos/')).json().count).toBe(3);
    expect((await guide.get(`/api/help-videos/${first.json().id}/`)).json().url).toBe('https://www.youtube.com/watch?v=scan1');
  });

  it('keeps a video the platform will not describe, saying why', async () => {
    const res = await owner.post('/api/help-videos/', { url: 'https://www.youtube.com/watch?v=private', topic: 'orders' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: '', thumbnail_url: null, notice: 'The video platform does not know this video, or it is private.' });
    const offline = await createTestApp({ env: { SMTP_URL: sink.url, OEMBED_ENDPOINT: 'http://127.0.0.1:9/oembed?url={url}' } });
    try {
      const b = await createOrganisation(offline.app, sink, { subdomain: 'helpoffline' });
      const kept = await b.post('/api/help-videos/', { url: 'https://vimeo.com/123', topic: 'stores' });
      expect(kept.statusCode).toBe(201);
      expect(kept.json().notice).toMatch(/could not be reached/);
    } finally {
      await offline.close();
    }
  });

  it('lets only who manages the account keep them, and refuses bad input in the envelope', async () => {
    const id = (await owner.get('/api/help-videos/?topic=check-in')).json().results[0].id;
    expect((await guide.post('/api/help-videos/', { url: 'https://youtu.be/x', topic: 'dashboard' })).statusCode).toBe(403);
    expect((await guide.patch(`/api/help-videos/${id}/`, { title: 'Mine' })).statusCode).toBe(403);
    expect((await guide.delete(`/api/help-videos/${id}/`)).statusCode).toBe(403);
    for (const body of [{ url: 'not a url', topic: 'dashboard' }, { url: 'ftp://example.com/v', topic: 'dashboard' }, { url: 'https://youtu.be/x', topic: 'billing' }, { url: 'https://youtu.be/x' }]) {
      const res = await owner.post('/api/help-videos/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('validation_error');
    }
    expect((await owner.get('/api/help-videos/?topic=billing')).statusCode).toBe(400);
    await owner.post('/api/help-videos/', { url: 'https://www.youtube.com/watch?v=cap0', topic: 'capacity' });
    const moved = await owner.patch(`/api/help-videos/${id}/`, { topic: 'capacity', title: 'Scanning tickets' });
    // Moved to another page, it goes last there.
    expect(moved.json()).toMatchObject({ topic: 'capacity', title: 'Scanning tickets', position: 1 });
    expect((await owner.delete(`/api/help-videos/${id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/help-videos/${id}/`)).statusCode).toBe(404);
  });

  it('is the organisation’s own, and apart from its offers’ videos', async () => {
    expect((await other.get('/api/help-videos/')).json().count).toBe(0);
    const id = (await owner.get('/api/help-videos/?topic=dashboard')).json().results[0].id;
    expect((await other.get(`/api/help-videos/${id}/`)).statusCode).toBe(404);
    expect((await other.delete(`/api/help-videos/${id}/`)).statusCode).toBe(404);
    // An offer's videos are not help videos, and the offer video routes do not reach help videos.
    const exp = await sellableExperience(owner, 'Help walk');
    await owner.post('/api/videos/', { url: 'https://www.youtube.com/watch?v=walk', experience: exp.id });
    expect((await owner.get('/api/help-videos/')).json().results.map((v: { url: string }) => v.url)).not.toContain('https://www.youtube.com/watch?v=walk');
    expect((await owner.get('/api/videos/')).json().results.map((v: { url: string }) => v.url)).toEqual(['https://www.youtube.com/watch?v=walk']);
    expect((await owner.get(`/api/videos/${id}/`)).statusCode).toBe(404);
    expect((await owner.delete(`/api/videos/${id}/`)).statusCode).toBe(404);
  });
});
