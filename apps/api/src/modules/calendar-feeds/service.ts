import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import {
  CALENDAR_FEED_DAYS_AHEAD,
  CALENDAR_FEED_DAYS_BACK,
  CALENDAR_FEED_MAX_EVENTS,
  CALENDAR_FEED_REFRESH_MINUTES,
  holdsFeatures,
  type TCalendarFeed,
} from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { icsCalendar } from '../../lib/ical';
import { staffLanguage, staffTranslate } from '../../lib/staff-text';
import { inTenant } from '../../lib/tenancy';
import { codenamesOf, holdsPermissionSets } from '../auth/principal';
import type { SigningKey } from '../auth/keys';
import * as q from './queries';

/**
 * Team members' calendar feeds: an iCalendar address per member listing the departures they may
 * check in (README.md: the rule, the window, the address's secret).
 */

/** The server's signing keys, as the feed's MAC needs them (auth/keys.ts: SigningKeys). */
export interface FeedKeys {
  current: SigningKey;
  byId(kid: string): SigningKey | undefined;
}

const macKeys = new WeakMap<Uint8Array, Buffer>();
/** A key of its own for feeds, derived from a signing key (so a feed's MAC is no other token's signature). */
function macKey(key: SigningKey) {
  let k = macKeys.get(key.key);
  if (!k) macKeys.set(key.key, (k = Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), 'tourdesk calendar feed v1', 32))));
  return k;
}
const mac = (key: SigningKey, feedId: string) => createHmac('sha256', macKey(key)).update(`calendar-feed ${feedId}`).digest('base64url');

/** The address's secret part: `{feed id}.{key id}.{mac}`. */
export const feedToken = (keys: FeedKeys, feedId: string) => `${feedId}.${keys.current.kid}.${mac(keys.current, feedId)}`;

/** The feed id a token proves, or null (malformed, a key no longer in the ring, a wrong MAC). */
export function provenFeedId(keys: FeedKeys, token: string): string | null {
  const [id, kid, given, ...rest] = token.split('.');
  if (rest.length > 0 || !id || !kid || !given || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return null;
  const key = keys.byId(kid);
  if (!key) return null;
  const expected = Buffer.from(mac(key, id));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? id : null;
}

/** The feed's path on the organisation's host. */
export const feedPath = (token: string) => `/api/calendar-feeds/${token}/departures.ics`;

function present(config: Config, keys: FeedKeys, subdomain: string, row: { id: string; created_at: Date } | undefined): TCalendarFeed {
  const url = row ? `${tenantOrigin(config, subdomain)}${feedPath(feedToken(keys, row.id))}` : null;
  return {
    url,
    webcal_url: url ? url.replace(/^https?:/, 'webcal:') : null,
    created_at: row ? row.created_at.toISOString() : null,
    days_back: CALENDAR_FEED_DAYS_BACK,
    days_ahead: CALENDAR_FEED_DAYS_AHEAD,
  };
}

/** The signed-in member's feed (its address, or none yet). */
export async function myFeed(ctx: TenantCtx, config: Config, keys: FeedKeys, userId: string) {
  return present(config, keys, await q.subdomainOf(ctx), await q.feedOf(ctx, userId));
}

/** A new address for the member; any earlier one stops answering (404). */
export async function resetFeed(ctx: TenantCtx, config: Config, keys: FeedKeys, userId: string) {
  return present(config, keys, await q.subdomainOf(ctx), await q.replaceFeed(ctx, userId));
}

/** Turns the member's feed off. */
export async function removeFeed(ctx: TenantCtx, userId: string) {
  if (!(await q.deleteFeed(ctx, userId))) throw notFound('You have no calendar feed.');
}

/** An Owner (Manage users) turns a member's feed off; 404 when the member (of this organisation) has none. */
export async function removeMemberFeed(ctx: TenantCtx, memberId: string) {
  if (!(await q.deleteFeed(ctx, memberId))) throw notFound('This team member has no calendar feed.');
}

/**
 * Who may have a feed, and so what it shows: a member who is active, whose role is the Owner's or
 * holds View experiences (the check-in page's rule: any such role may check in every departure),
 * in an organisation whose plan has bookings (the check-in page's and the manifests' feature).
 * There are no guide assignments yet, so every such member sees every departure.
 */
export function mayHaveFeed(member: { is_active: boolean; is_owner: boolean | null; permission_set_ids: string[] | null; features: string[] | null }) {
  if (!member.is_active) return false;
  const codenames = codenamesOf(member.permission_set_ids ?? []);
  return (member.is_owner === true || holdsPermissionSets(codenames, ['View experiences'])) && holdsFeatures(new Set(member.features ?? []), ['bookings']);
}

export interface FeedText {
  body: string;
  etag: string;
}

/**
 * The feed of a token: 404 for any token that proves nothing, a feed reset or removed, a member
 * deactivated or no longer allowed (mayHaveFeed), or a token presented on another organisation's
 * host. One query finds the feed and its member (outside any tenant), one reads its departures.
 */
export async function feedCalendar(db: Db, config: Config, keys: FeedKeys, token: string, hostSubdomain: string | null): Promise<FeedText> {
  const gone = () => notFound('No calendar feed at this address.');
  const id = provenFeedId(keys, token);
  if (!id) throw gone();
  const feed = await q.serverFeed(db, id);
  if (!feed || feed.subdomain !== hostSubdomain || !mayHaveFeed(feed)) throw gone();
  const rows = await inTenant(db, feed.account_id, (tx) =>
    q.departures(
      { tx, accountId: feed.account_id, currency: '' },
      { timeZone: feed.time_zone, daysBack: CALENDAR_FEED_DAYS_BACK, daysAhead: CALENDAR_FEED_DAYS_AHEAD, limit: CALENDAR_FEED_MAX_EVENTS },
    ),
  );
  const t = staffTranslate(staffLanguage(feed.language, feed.languages));
  const origin = tenantOrigin(config, feed.subdomain);
  const body = icsCalendar(
    { prodId: '-//Tourdesk//Departures//EN', name: t('calendarFeed.name', { organisation: feed.organisation }), refreshMinutes: CALENDAR_FEED_REFRESH_MINUTES },
    rows.map((r) => {
      const manifest = `${origin}/bookings/manifests/${r.id}`;
      return {
        uid: `departure-${r.id}@${config.BASE_DOMAIN}`,
        stamp: r.updated_at,
        lastModified: r.updated_at,
        start: r.starts_at,
        end: r.ends_at,
        summary: r.title,
        location: r.meeting_point ? [r.meeting_point, r.meeting_address].filter(Boolean).join(', ') : null,
        description: t('calendarFeed.description', { booked: r.booked, capacity: r.capacity, manifest }),
        descriptionLanguage: t.language,
        url: manifest,
      };
    }),
  );
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
