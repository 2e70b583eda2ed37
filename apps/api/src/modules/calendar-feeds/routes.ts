import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCalendarFeed, ZCalendarFeedTokenParam, ZErrorEnvelope, ZIdParam } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { requestHost } from '../../lib/host';
import { principalOf } from '../auth/principal';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
const tags = ['calendar-feeds'];
/** Who may have a feed: the check-in page's access (service.ts: mayHaveFeed() is the same rule for the feed itself). */
const members: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };

/** If-None-Match against the feed's ETag: a list, `*`, and the weak comparison of RFC 9110 (W/ ignored). */
function unchanged(header: string | undefined, etag: string) {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * A team member's calendar feed: the member's own address (see, reset, turn off) and the feed
 * itself, public but for its address's secret (`:token`, redacted from every log line by
 * lib/secret-paths.ts for its name).
 */
export async function calendarFeedRoutes(appIn: FastifyInstance) {
  const app = appIn.withTypeProvider<ZodTypeProvider>();
  const keys = () => app.signingKeys;

  app.get(
    '/api/users/me/calendar-feed/',
    { config: { access: members }, schema: { tags, summary: 'My calendar feed: its private address (url null: none yet)', response: { 200: ZCalendarFeed, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.myFeed(ctx, app.config, keys(), principalOf(request).userId)),
  );
  app.post(
    '/api/users/me/calendar-feed/',
    { config: { access: members }, schema: { tags, summary: 'A new address for my calendar feed; the earlier one stops working', response: { 201: ZCalendarFeed, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => svc.resetFeed(ctx, app.config, keys(), principalOf(request).userId))),
  );
  app.delete(
    '/api/users/me/calendar-feed/',
    { config: { access: members }, schema: { tags, summary: 'Turn my calendar feed off: its address stops working', response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.removeFeed(ctx, principalOf(request).userId));
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/team-members/:id/calendar-feed/',
    {
      config: { access: { permissions: ['Manage users'] } },
      schema: { tags, summary: 'Turn a team member’s calendar feed off (a lost phone, a shared address): its address stops working; they can make a new one', params: ZIdParam, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.removeMemberFeed(ctx, request.params.id));
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/calendar-feeds/:token/departures.ics',
    {
      config: { access: { public: true, reason: 'a calendar app fetches a member’s feed with the secret in its address, and nothing else' } },
      schema: {
        tags,
        summary: 'A member’s departures as an iCalendar feed (text/calendar; ETag, 304 when unchanged); 404 for an address reset, removed or of a member who may no longer check in',
        params: ZCalendarFeedTokenParam,
        response: { 200: z.any(), 304: z.null(), 404: ZErrorEnvelope, 400: ZErrorEnvelope },
      },
    },
    async (request, reply) => {
      const feed = await svc.feedCalendar(app.database.db, app.config, keys(), request.params.token, requestHost(request).subdomain);
      reply.header('cache-control', 'private, no-cache').header('etag', feed.etag).header('x-robots-tag', 'noindex');
      if (unchanged(request.headers['if-none-match'], feed.etag)) return reply.status(304).send(null);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="departures.ics"')
        .send(feed.body);
    },
  );
}
