import { z } from 'zod';
import { TIME_FORMATS } from './display';
import { BACK_OFFICE_LANGUAGES, LANGUAGES } from './i18n/languages';
import { ACCOUNT_KINDS, type PermissionSetTitle } from './constants';
import { ZCurrency, ZTimeZone } from './money';

/**
 * The nine permission sets of the spec, each a list of Django-style codenames. A role holds
 * permission sets; a user passes a check when the role's codenames contain every codename of
 * every required set (so "Manage experiences" includes "View experiences").
 */
const crud = (model: string) => [`view_${model}`, `add_${model}`, `change_${model}`, `delete_${model}`];

export const PERMISSION_SETS: { id: string; title: PermissionSetTitle; codenames: string[] }[] = [
  {
    id: 'manage_account',
    title: 'Manage account',
    codenames: ['view_base_account', 'change_base_account', 'view_subscription', 'change_subscription', ...crud('payment_provider')],
  },
  { id: 'manage_users', title: 'Manage users', codenames: [...crud('user'), ...crud('role')] },
  {
    id: 'manage_experiences',
    title: 'Manage experiences',
    codenames: [
      ...crud('experience'),
      ...crud('pricing_category'),
      ...crud('pricing_rate'),
      ...crud('meeting_point'),
      ...crud('video'),
      ...crud('booking_question'),
      ...crud('cancellation_policy'),
      ...crud('start_time'),
    ],
  },
  { id: 'manage_customers', title: 'Manage customers', codenames: crud('customer') },
  { id: 'manage_cart', title: 'Manage cart', codenames: [...crud('cart'), ...crud('cart_line')] },
  { id: 'manage_stores', title: 'Manage stores', codenames: [...crud('store'), ...crud('qr_code'), ...crud('partnership')] },
  { id: 'manage_inventory', title: 'Manage inventory', codenames: [...crud('inventory_item'), ...crud('inventory_item_category')] },
  {
    id: 'manage_orders',
    title: 'Manage orders',
    codenames: [...crud('order'), ...crud('order_line'), 'view_order_payment', 'add_order_payment', 'view_resale'],
  },
  { id: 'view_experiences', title: 'View experiences', codenames: ['view_experience'] },
];

/** What a subscription plan can switch on. Routes and pages name the ones they need. */
export const SUBSCRIPTION_FEATURES = [
  'experiences',
  'bookings',
  'orders',
  'customers',
  'stores',
  'web_store',
  'inventory',
  'team',
  'resales',
  'partners',
  'qr_codes',
  'analytics',
] as const;
export type SubscriptionFeature = (typeof SUBSCRIPTION_FEATURES)[number];

export const RESERVED_SUBDOMAINS = [
  'www', 'api', 'admin', 'app', 'apps', 'auth', 'login', 'mail', 'smtp', 'static', 'assets', 'cdn', 'help',
  'support', 'status', 'docs', 'blog', 'dashboard', 'billing', 'store', 'shop', 'web', 'dev', 'staging', 'test',
  'demo-admin', 'root', 'system', 'tourdesk',
] as const;

export const ZSubdomain = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, { error: 'A subdomain has at least 3 characters.' })
  .max(63, { error: 'A subdomain has at most 63 characters.' })
  .regex(/^[a-z0-9-]+$/, { error: 'Use only lowercase letters, digits and hyphens.' })
  .regex(/^[a-z0-9].*[a-z0-9]$/, { error: 'A subdomain starts and ends with a letter or a digit.' })
  .refine((s) => !(RESERVED_SUBDOMAINS as readonly string[]).includes(s), { error: 'This subdomain is reserved.' });

export const ZEmail = z.email({ error: 'Enter a valid e-mail address.' }).trim().toLowerCase().max(254);
export const ZPassword = z
  .string()
  .min(8, { error: 'A password has at least 8 characters.' })
  .max(128, { error: 'A password has at most 128 characters.' });
const ZName = z.string().trim().max(150);

export const ZPermissionSet = z
  .object({ id: z.string(), title: z.string(), codenames: z.array(z.string()) })
  .meta({ id: 'PermissionSet' });
export type TPermissionSet = z.infer<typeof ZPermissionSet>;

export const ZAppInfo = z
  .object({
    permission_sets: z.array(ZPermissionSet),
    subscription_features: z.array(z.string()),
    base_domain: z.string(),
  })
  .meta({ id: 'AppInfo' });
export type TAppInfo = z.infer<typeof ZAppInfo>;

export const ZRole = z
  .object({
    id: z.uuid(),
    name: z.string(),
    is_owner: z.boolean(),
    permission_sets: z.array(ZPermissionSet),
    member_count: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Role' });
export type TRole = z.infer<typeof ZRole>;

export const ZRoleInput = z.object({
  name: z.string().trim().min(1, { error: 'A role needs a name.' }).max(100),
  permission_sets: z.array(z.string()).max(PERMISSION_SETS.length),
});
export type TRoleInput = z.infer<typeof ZRoleInput>;

export const ZBaseAccount = z
  .object({
    id: z.uuid(),
    name: z.string(),
    subdomain: z.string(),
    kind: z.enum(ACCOUNT_KINDS),
    time_zone: z.string(),
    currency: z.string(),
    locale: z.string(),
    /** How times read in the back office (Settings → Product configuration). */
    time_format: z.enum(TIME_FORMATS),
    /** The languages the organisation sells in, its first the main one (Settings → Product configuration). */
    languages: z.array(z.enum(LANGUAGES)),
    subscription_tier: z.object({ id: z.string(), name: z.string() }).nullable(),
    active_subscription_features: z.array(z.string()),
  })
  .meta({ id: 'BaseAccount' });

export const ZUser = z
  .object({
    id: z.uuid(),
    email: z.string(),
    /** A new sign-in address asked for, which counts once the link sent to it is followed (null: none). */
    pending_email: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    /** The back office's language chosen in the profile (null: the browser's, negotiated among BACK_OFFICE_LANGUAGES). */
    language: z.enum(BACK_OFFICE_LANGUAGES).nullable(),
    is_active: z.boolean(),
    /** Whether the user guides departures (issue 34): the back office shows them "My departures". */
    guides: z.boolean(),
    role: z.object({ id: z.uuid(), name: z.string(), is_owner: z.boolean(), permission_sets: z.array(ZPermissionSet) }).nullable(),
    base_account: ZBaseAccount,
    /** The back-office cart arrives with the availability module. */
    cart: z.object({ id: z.uuid() }).nullable(),
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

export const TEAM_MEMBER_STATUSES = ['invited', 'active', 'deactivated'] as const;
export const ZTeamMember = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_active: z.boolean(),
    status: z.enum(TEAM_MEMBER_STATUSES),
    role: z.object({ id: z.uuid(), name: z.string(), is_owner: z.boolean() }).nullable(),
    last_login: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'TeamMember' });
export type TTeamMember = z.infer<typeof ZTeamMember>;

export const ZTeamMemberInvite = z.object({
  email: ZEmail,
  first_name: ZName.default(''),
  last_name: ZName.default(''),
  role: z.uuid({ error: 'Choose a role.' }),
});
export const ZTeamMemberUpdate = z
  .object({
    first_name: ZName,
    last_name: ZName,
    role: z.uuid({ error: 'Choose a role.' }),
    is_active: z.boolean(),
  })
  .partial();
export type TTeamMemberUpdate = z.infer<typeof ZTeamMemberUpdate>;

export const ZTeamMemberListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum(TEAM_MEMBER_STATUSES).optional(),
  role: z.uuid().optional(),
});

export const ZRegisterInput = z.object({
  email: ZEmail,
  password: ZPassword,
  first_name: ZName.default(''),
  last_name: ZName.default(''),
  organisation_name: z.string().trim().min(2, { error: 'Enter your organisation’s name.' }).max(120),
  kind: z.enum(ACCOUNT_KINDS, { error: 'Choose supplier or affiliate.' }),
  subdomain: ZSubdomain,
  /** The organisation's currency and time zone (the sign-up form proposes the browser's). */
  currency: ZCurrency.default('EUR'),
  time_zone: ZTimeZone.default('UTC'),
  recaptcha_token: z.string().max(4000).optional(),
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;
/** A sign-up made: where the activation link went, and the organisation's subdomain. */
export const ZRegistered = z.object({ email: z.string(), subdomain: z.string() });
export type TRegistered = z.infer<typeof ZRegistered>;
export const ZSubdomainQuery = z.object({ subdomain: z.string().max(100) });

export const ZSubdomainCheck = z
  .object({ subdomain: z.string(), available: z.boolean(), reason: z.string().nullable() })
  .meta({ id: 'SubdomainCheck' });
export type TSubdomainCheck = z.infer<typeof ZSubdomainCheck>;

export const ZLoginInput = z.object({ email: ZEmail, password: z.string().min(1, { error: 'Enter your password.' }).max(128) });
export type TLoginInput = z.input<typeof ZLoginInput>;
export const ZSessionResult = z
  .object({ redirect_url: z.string(), subdomain: z.string() })
  .meta({ id: 'SessionResult' });
export type TSessionResult = z.infer<typeof ZSessionResult>;
/** Where a visitor goes after the organisation this browser signed in to. */
export const ZSsoResumeQuery = z.object({ next: z.string().max(2000) });

/** Signing in with the OpenID Connect provider: the provider's page to start, then the code it returned. */
export const ZOidcStart = z.object({ authorization_url: z.string() });
export type TOidcStart = z.infer<typeof ZOidcStart>;
export const ZOidcCallback = z.object({ code: z.string().min(1).max(2000), state: z.string().min(1).max(500), iss: z.string().max(500).optional() });
export type TOidcCallback = z.input<typeof ZOidcCallback>;

/** What the sign-in pages need before anyone is signed in. */
export const ZPublicConfig = z
  .object({
    base_domain: z.string(),
    public_url: z.string(),
    recaptcha_site_key: z.string().nullable(),
    oidc: z.object({ enabled: z.boolean(), name: z.string() }),
    /** Map tiles for previews of places ({z}/{x}/{y}), or null when none are configured. */
    map_tile_url: z.string().nullable(),
  })
  .meta({ id: 'PublicConfig' });
export type TPublicConfig = z.infer<typeof ZPublicConfig>;

export const ZUidToken = z.object({ uid: z.uuid({ error: 'This link is not valid.' }), token: z.string().min(10).max(200) });
export type TUidToken = z.input<typeof ZUidToken>;
export const ZEmailOnly = z.object({ email: ZEmail, recaptcha_token: z.string().max(4000).optional() });
export type TEmailOnly = z.input<typeof ZEmailOnly>;
export const ZResetPasswordConfirm = ZUidToken.extend({ new_password: ZPassword });
export type TResetPasswordConfirm = z.input<typeof ZResetPasswordConfirm>;
/** The password a signed-in user types again to change their e-mail or password, or to delete their account. */
export const ZCurrentPassword = z.string().min(1, { error: 'Enter your current password.' }).max(128);
export const ZSetPassword = z.object({ current_password: ZCurrentPassword, new_password: ZPassword });
export type TSetPassword = z.input<typeof ZSetPassword>;
export const ZSetEmail = z.object({ current_password: ZCurrentPassword, new_email: ZEmail });
export type TSetEmail = z.input<typeof ZSetEmail>;
export const ZResetEmailConfirm = ZUidToken.extend({ new_email: ZEmail });
export type TResetEmailConfirm = z.input<typeof ZResetEmailConfirm>;
export const ZHandoff = z.object({ code: z.string().min(10).max(200) });
export type THandoff = z.input<typeof ZHandoff>;
export const ZMeUpdate = z.object({
  first_name: ZName,
  last_name: ZName,
  /** The back office's language (null: the browser's); left out, it stays as it is. */
  language: z.enum(BACK_OFFICE_LANGUAGES).nullable().optional(),
});
export const ZMeDelete = z.object({ current_password: ZCurrentPassword });
export const ZDetail = z.object({ detail: z.string() }).meta({ id: 'Detail' });
export type TDetail = z.infer<typeof ZDetail>;

export const ZSubscriptionTier = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(ACCOUNT_KINDS),
    features: z.array(z.string()),
    monthly_price: z.number().int(),
    /** The price of a year at once (0: not sold by the year). */
    yearly_price: z.number().int(),
    currency: z.string(),
    trial_days: z.number().int(),
    /** At most, per plan (a missing key: no limit). */
    limits: z.object({ offers: z.number().int().optional(), stores: z.number().int().optional(), team_members: z.number().int().optional(), bookings_per_month: z.number().int().optional() }),
    /** The platform's fee on online payments, in basis points. */
    application_fee_bp: z.number().int(),
  })
  .meta({ id: 'SubscriptionTier' });
export type TSubscriptionTier = z.infer<typeof ZSubscriptionTier>;
export const ZSubscriptionTierParams = z.object({ id: z.string().max(64) });

export const PLAN_LIMITS = ['offers', 'stores', 'team_members', 'bookings_per_month'] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];
export const SUBSCRIPTION_STATUSES = ['none', 'trialing', 'active', 'past_due', 'canceled'] as const;

/** The organisation's plan now, what it uses of its limits, and how it is paid. */
export const ZSubscription = z
  .object({
    tier: ZSubscriptionTier,
    status: z.enum(SUBSCRIPTION_STATUSES),
    interval: z.enum(['month', 'year']).nullable(),
    trial_ends_at: z.iso.datetime().nullable(),
    current_period_end: z.iso.datetime().nullable(),
    /** Whether it can buy a plan here (the platform's Stripe keys are set). */
    billing_available: z.boolean(),
    /** Whether Stripe's customer portal can be opened (it has a Stripe customer). */
    can_manage: z.boolean(),
    usage: z.object({ offers: z.number().int(), stores: z.number().int(), team_members: z.number().int(), bookings_per_month: z.number().int() }),
  })
  .meta({ id: 'Subscription' });
export type TSubscription = z.infer<typeof ZSubscription>;
export const ZSubscriptionCreate = z.object({ tier: z.string().min(1).max(60), interval: z.enum(['month', 'year']).default('month') });
export type TSubscriptionCreate = z.input<typeof ZSubscriptionCreate>;
/** A plan chosen: Stripe's page to pay for it (url), or the plan as it is now when nothing was to pay. */
export const ZSubscriptionChange = z.object({ url: z.string().nullable(), subscription: ZSubscription }).meta({ id: 'SubscriptionChange' });
export type TSubscriptionChange = z.infer<typeof ZSubscriptionChange>;
/** Stripe's customer portal (the card, invoices, change or cancel the plan). */
export const ZBillingPortal = z.object({ url: z.string() });
export type TBillingPortal = z.infer<typeof ZBillingPortal>;

export const ZRecaptchaVerify = z.object({ token: z.string().min(1).max(4000) });
export const ZRecaptchaResult = z.object({ success: z.boolean(), enabled: z.boolean() }).meta({ id: 'RecaptchaResult' });
