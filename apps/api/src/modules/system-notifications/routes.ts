import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZErrorEnvelope,
  ZIdParam,
  ZPaginationQuery,
  ZSystemNotification,
  ZSystemNotificationList,
  ZSystemNotificationListQuery,
} from '@tourdesk/contracts';
import { getSystemNotification, listSystemNotifications } from './service';

const access = { public: true, reason: 'platform announcements are public, like a status page' } as const;

export const systemNotificationRoutes: FastifyPluginAsyncZod = async (app) => {
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
    (request) => listSystemNotifications(app.database.db, request, request.query),
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
