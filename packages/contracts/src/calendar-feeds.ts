import { z } from 'zod';

/**
 * A team member's private calendar feed (apps/api/src/modules/calendar-feeds): an iCalendar address
 * of the departures they may check in, for Google Calendar, Outlook or Apple Calendar to subscribe to.
 */

/** The feed's window: departures from this many days back to this many ahead (the organisation's local days). */
export const CALENDAR_FEED_DAYS_BACK = 30;
export const CALENDAR_FEED_DAYS_AHEAD = 180;
/** At most this many departures in a feed, the earliest first (a calendar app refuses very large feeds). */
export const CALENDAR_FEED_MAX_EVENTS = 2000;
/** How often a subscribed calendar is asked to fetch again, in minutes (apps decide: Google about twice a day). */
export const CALENDAR_FEED_REFRESH_MINUTES = 60;

export const ZCalendarFeed = z
  .object({
    /** The feed's https address (null: the member has none yet). It is a secret: whoever has it reads the departures. */
    url: z.string().nullable(),
    /** The same address as webcal://, which opens the subscription in Apple Calendar and Outlook. */
    webcal_url: z.string().nullable(),
    created_at: z.iso.datetime().nullable(),
    days_back: z.number().int(),
    days_ahead: z.number().int(),
  })
  .meta({ id: 'CalendarFeed' });
export type TCalendarFeed = z.infer<typeof ZCalendarFeed>;

/** The feed's address parameter: `{id}.{key id}.{mac}`; anything else is simply not found. */
export const ZCalendarFeedTokenParam = z.object({ token: z.string().min(1).max(200) });
