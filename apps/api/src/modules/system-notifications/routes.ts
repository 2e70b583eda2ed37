import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZErrorEnvelope,
  ZIdParam,
  ZPaginationQuery,
  ZSystemNotification,
  ZSystemNotificationList,
  ZSystemNotificationListQuery,
  ZNotificationsUnread,
} from '@tourdesk/contracts';
import { z } from 'zod';
import { tenantScope } from '../../lib/crud';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import { countSystemNotifications, getSystemNotification, markSeen, systemNotificationPage, unreadOf } from './service';

const access = { public: true, reason: 'platform announcements are public, like a status page' } as const;

/** The bell is the signed-in user's: what they have not seen yet. */
const signedIn = { permissions: [] };

export const systemNotificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/system-notifications/unread/',
    { config: { access: signedIn }, schema: { tags: ['system'], summary: 'How many announcements came since the signed-in user last opened them', response: { 200: ZNotificationsUnread, 401: ZErrorEnvelope } } },
    (request) => tenantScope(request, (ctx) => unreadOf(ctx, principalOf(request).userId)),
  );
  app.post(
    '/api/system-notifications/seen/',
    { config: { access: signedIn }, schema: { tags: ['system'], summary: 'The signed-in user has opened the announcements (the bell counts from now)', response: { 204: z.undefined(), 401: ZErrorEnvelope } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => markSeen(ctx, principalOf(request).userId));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/system-notifications/',
    {
      config: { access },
      schema: {
        tags: ['system'],
        summary: 'Platform announcements, newest first',
        querystring: ZPaginationQuery.extend(ZSystemNotificationListQuery.shape),
        response: { 200: ZSystemNotificationList, 400: ZErrorEnvelope, 404: ZErrorEnvelope },
      },
    },
    (request) =>
      paginate(
        request,
        request.query,
        () => countSystemNotifications(app.database.db, request.query),
        (limit, offset) => systemNotificationPage(app.database.db, request.query, limit, offset),
      ),
  );

  app.get(
    '/api/system-notifications/:id/',
    {
      config: { access },
      schema: {
        tags: ['system'],
        summary: 'One platform announcement',
        params: ZIdParam,
        response: { 200: ZSystemNotification, 400: ZErrorEnvelope, 404: ZErrorEnvelope },
      },
    },
    (request) => getSystemNotification(app.database.db, request.params.id),
  );
};
