import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PERMISSION_SETS,
  SUBSCRIPTION_FEATURES,
  ZAppInfo,
  ZErrorEnvelope,
  ZPublicConfig,
  ZRecaptchaResult,
  ZRecaptchaVerify,
  ZSubscriptionTier,
  ZSubscriptionTierParams,
} from '@tourdesk/contracts';
import { recaptchaEnabled, verifyRecaptcha } from '../../lib/recaptcha';
import { oidcEnabled } from '../oidc/service';
import { getTier, listTiers } from '../plans/service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 404: ZErrorEnvelope };

export const appInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/app-info/',
    { config: { access: { permissions: [] } }, schema: { tags: ['app'], summary: 'Permission sets and plan features', response: { 200: ZAppInfo, ...errors } } },
    async () => ({
      permission_sets: PERMISSION_SETS.map(({ id, title, codenames }) => ({ id, title, codenames })),
      subscription_features: [...SUBSCRIPTION_FEATURES],
      base_domain: app.config.BASE_DOMAIN,
    }),
  );

  app.get(
    '/api/public-config/',
    {
      config: { access: { public: true, reason: 'what the sign-in and sign-up pages need before anyone signs in' } },
      schema: { tags: ['app'], summary: 'Settings the sign-in pages need', response: { 200: ZPublicConfig } },
    },
    async () => ({
      base_domain: app.config.BASE_DOMAIN,
      public_url: app.config.publicUrl.origin,
      recaptcha_site_key: recaptchaEnabled(app.config) ? (app.config.RECAPTCHA_SITE_KEY ?? null) : null,
      oidc: { enabled: oidcEnabled(app.config), name: app.config.OIDC_DISPLAY_NAME },
      map_tile_url: app.config.MAP_TILE_URL ?? null,
    }),
  );

  app.post(
    '/api/recaptcha/verify/',
    {
      config: { access: { public: true, reason: 'checks a reCAPTCHA answer before sign-up' } },
      schema: { tags: ['app'], summary: 'Verify a reCAPTCHA token', body: ZRecaptchaVerify, response: { 200: ZRecaptchaResult, ...errors } },
    },
    async (request) => ({
      enabled: recaptchaEnabled(app.config),
      success: await verifyRecaptcha(app.config, request.body.token, request.ip),
    }),
  );

  const tierAccess = { access: { public: true as const, reason: 'plans and prices are public' } };
  app.get(
    '/api/subscription-tiers/',
    { config: tierAccess, schema: { tags: ['subscription'], summary: 'Subscription plans', response: { 200: z.array(ZSubscriptionTier) } } },
    () => listTiers(app.database.db),
  );
  app.get(
    '/api/subscription-tiers/:id/',
    {
      config: tierAccess,
      schema: { tags: ['subscription'], summary: 'One subscription plan', params: ZSubscriptionTierParams, response: { 200: ZSubscriptionTier, ...errors } },
    },
    (request) => getTier(app.database.db, request.params.id),
  );
};
