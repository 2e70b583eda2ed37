import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDetail,
  ZEmailOnly,
  ZErrorEnvelope,
  ZIdParam,
  ZMeDelete,
  ZMeUpdate,
  ZPaginationQuery,
  ZRegisterInput,
  ZRegistered,
  ZResetEmailConfirm,
  ZResetPasswordConfirm,
  ZSetEmail,
  ZSetPassword,
  ZSubdomainCheck,
  ZSubdomainQuery,
  ZTeamMember,
  ZTeamMemberInvite,
  ZTeamMemberListQuery,
  ZTeamMemberUpdate,
  ZUidToken,
  ZUser,
  paginated,
} from '@tourdesk/contracts';
import { tenantScope } from '../../lib/crud';
import { sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as flows from './public-flows';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 429: ZErrorEnvelope };
const none = { 204: z.undefined(), ...errors };
const pub = (reason: string) => ({ access: { public: true as const, reason } });
const signedIn = { access: { permissions: [] } };
const manageUsers = { access: { permissions: ['Manage users' as const], features: ['team'] } };
const tags = ['users'];

/** The signed-in caller as the services need it (see svc.Caller). */
const caller = (request: FastifyRequest): svc.Caller => ({
  run: (fn, options) => tenantScope(request, fn, options),
  db: request.server.database.db,
  me: principalOf(request),
  config: request.server.config,
  jobs: request.server.jobs,
});
/** What the public flows need of the server and the request (see flows.FlowEnv). */
const flowEnv = (request: FastifyRequest): flows.FlowEnv => ({
  db: request.server.database.db,
  config: request.server.config,
  jobs: request.server.jobs,
  ip: request.ip,
  log: request.log,
});

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // --- people who are not signed in -------------------------------------------------------
  app.post(
    '/api/users/register/',
    {
      config: pub('sign-up'),
      schema: {
        tags,
        summary: 'Sign up: a new organisation with its owner (inactive until the e-mailed link is opened)',
        body: ZRegisterInput,
        response: { 201: ZRegistered, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await flows.register(flowEnv(request), request.body)),
  );

  app.get(
    '/api/subdomains/check/',
    {
      config: pub('sign-up form checks a subdomain as the user types'),
      schema: { tags, summary: 'Is this subdomain free?', querystring: ZSubdomainQuery, response: { 200: ZSubdomainCheck, ...errors } },
    },
    (request) => flows.subdomainAvailability(app.database.db, request.query.subdomain),
  );

  const publicFlow = <T extends z.ZodType>(
    path: string,
    summary: string,
    body: T,
    run: (request: FastifyRequest, body: z.infer<T>) => Promise<void>,
  ) =>
    app.post(
      path,
      { config: pub(summary), schema: { tags, summary, body, response: none } },
      async (request, reply) => {
        await run(request, request.body as z.infer<T>);
        return reply.status(204).send();
      },
    );

  publicFlow('/api/users/activation/', 'Activate an account from the e-mailed link', ZUidToken, (_r, b) => flows.activate(app.database.db, b.uid, b.token));
  publicFlow('/api/users/resend_activation/', 'Send the activation e-mail again (same answer for any address)', ZEmailOnly, (r, b) =>
    flows.resendActivation(flowEnv(r), b.email),
  );
  publicFlow('/api/users/reset_password/', 'E-mail a password reset link (same answer for any address)', ZEmailOnly, (r, b) =>
    flows.resetPassword(flowEnv(r), b.email, b.recaptcha_token),
  );
  publicFlow('/api/users/reset_password_confirm/', 'Choose a new password from the e-mailed link', ZResetPasswordConfirm, (_r, b) =>
    flows.resetPasswordConfirm(app.database.db, b.uid, b.token, b.new_password),
  );
  publicFlow('/api/users/accept_invitation/', 'Accept an invitation by choosing a password', ZResetPasswordConfirm, (_r, b) =>
    flows.acceptInvitation(app.database.db, b.uid, b.token, b.new_password),
  );
  publicFlow('/api/users/reset_email/', 'E-mail a link to change the sign-in address (same answer for any address)', ZEmailOnly, (r, b) =>
    flows.resetEmail(flowEnv(r), b.email),
  );
  publicFlow('/api/users/reset_email_confirm/', 'Choose a new sign-in address from the e-mailed link (it counts once the link sent to it is followed)', ZResetEmailConfirm, (r, b) =>
    flows.resetEmailConfirm(flowEnv(r), b.uid, b.token, b.new_email),
  );
  publicFlow('/api/users/confirm_email/', 'Confirm a new sign-in address from the link sent to it', ZUidToken, (r, b) => flows.confirmEmail(flowEnv(r), b.uid, b.token));

  // --- the signed-in user -----------------------------------------------------------------
  app.get('/api/users/me/', { config: signedIn, schema: { tags, summary: 'The signed-in user', response: { 200: ZUser, ...errors } } }, (request) =>
    svc.getMe(caller(request)),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/users/me/',
      config: signedIn,
      schema: { tags, summary: 'Update your name or your back-office language', body: method === 'PUT' ? ZMeUpdate : ZMeUpdate.partial(), response: { 200: ZUser, ...errors } },
      handler: (request) => svc.updateMe(caller(request), request.body as z.infer<typeof ZMeUpdate>),
    });
  }
  app.delete(
    '/api/users/me/',
    { config: signedIn, schema: { tags, summary: 'Delete your own account (asks for the password)', body: ZMeDelete, response: none } },
    async (request, reply) => {
      await svc.deleteMe(caller(request), request.body.current_password);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/users/set_password/',
    { config: signedIn, schema: { tags, summary: 'Change your password (other sessions are signed out)', body: ZSetPassword, response: none } },
    async (request, reply) => {
      await svc.setPassword(caller(request), request.body.current_password, request.body.new_password);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/users/set_email/',
    { config: signedIn, schema: { tags, summary: 'Ask for a new sign-in e-mail address (it counts once the link sent to it is followed)', body: ZSetEmail, response: none } },
    async (request, reply) => {
      await svc.setEmail(caller(request), request.body.current_password, request.body.new_email);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/users/me/logout_others/',
    { config: signedIn, schema: { tags, summary: 'Sign out of every other session', response: { 200: ZDetail, ...errors } } },
    (request) => svc.logoutOtherSessions(caller(request)),
  );

  // --- the organisation's users (also served as team members) -----------------------------
  const ZMemberList = paginated(ZTeamMember);
  for (const base of ['/api/users/', '/api/team-members/']) {
    const resource = base === '/api/users/' ? ['users'] : ['team-members'];
    app.get(
      base,
      {
        config: manageUsers,
        schema: {
          tags: resource,
          summary: 'The organisation’s members',
          querystring: ZPaginationQuery.extend(ZTeamMemberListQuery.shape),
          response: { 200: ZMemberList, ...errors },
        },
      },
      (request) =>
        tenantScope(request, (ctx) =>
          paginate(
            request,
            request.query,
            () => svc.countTeam(ctx, request.query),
            (limit, offset) => svc.teamPage(ctx, request.query, limit, offset),
          ),
        ),
    );
    app.get(
      `${base}export.csv`,
      { config: manageUsers, schema: { tags: resource, summary: 'The members (filtered as the list) as CSV', querystring: ZTeamMemberListQuery, response: { 200: z.string(), ...errors } } },
      async (request, reply) => sendCsv(reply, 'team-members', await tenantScope(request, (ctx) => svc.teamCsv(ctx, request.query), { snapshot: true })),
    );
    app.post(
      base,
      { config: manageUsers, schema: { tags: resource, summary: 'Invite a member by e-mail with a role', body: ZTeamMemberInvite, response: { 201: ZTeamMember, ...errors } } },
      async (request, reply) => reply.status(201).send(await svc.inviteMember(caller(request), request.body)),
    );
    app.get(
      `${base}:id/`,
      { config: manageUsers, schema: { tags: resource, summary: 'One member', params: ZIdParam, response: { 200: ZTeamMember, ...errors } } },
      (request) => svc.getTeamMember(caller(request), request.params.id),
    );
    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: `${base}:id/`,
        config: manageUsers,
        schema: {
          tags: resource,
          summary: 'Change a member’s name, role or active flag',
          params: ZIdParam,
          body: method === 'PUT' ? ZTeamMemberUpdate.required() : ZTeamMemberUpdate,
          response: { 200: ZTeamMember, ...errors },
        },
        handler: (request) => svc.updateMember(caller(request), (request.params as { id: string }).id, request.body as z.infer<typeof ZTeamMemberUpdate>),
      });
    }
    app.delete(
      `${base}:id/`,
      { config: manageUsers, schema: { tags: resource, summary: 'Remove a member', params: ZIdParam, response: none } },
      async (request, reply) => {
        await svc.removeMember(caller(request), request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      `${base}:id/resend_invitation/`,
      { config: manageUsers, schema: { tags: resource, summary: 'Send the invitation e-mail again', params: ZIdParam, response: { 200: ZDetail, ...errors } } },
      (request) => svc.resendInvitation(caller(request), request.params.id),
    );
  }
};
