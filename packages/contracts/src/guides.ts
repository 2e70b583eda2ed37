import { z } from 'zod';
import { ZManifest } from './manifests';
import { ZDate } from './text';

/**
 * Guides (issue 34, apps/api/src/modules/guides): which team members guide, their days off, who
 * guides which departure, and a guide's own departures with their manifests.
 */

/** Auto-assignment covers at most this many days at a time (a week and a day to spare). */
export const GUIDE_AUTO_ASSIGN_MAX_DAYS = 14;

export const ZGuideRef = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'GuideRef' });
export type TGuideRef = z.infer<typeof ZGuideRef>;

export const ZGuideDayOff = z
  .object({ id: z.uuid(), starts_on: z.string(), ends_on: z.string(), note: z.string() })
  .meta({ id: 'GuideDayOff' });
export type TGuideDayOff = z.infer<typeof ZGuideDayOff>;

/** A team member as the guides page shows them: whether they guide, their days off to come. */
export const ZGuideMember = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    guides: z.boolean(),
    days_off: z.array(ZGuideDayOff),
  })
  .meta({ id: 'GuideMember' });
export type TGuideMember = z.infer<typeof ZGuideMember>;
export const ZGuideMembers = z.object({ results: z.array(ZGuideMember) }).meta({ id: 'GuideMembers' });
export type TGuideMembers = z.infer<typeof ZGuideMembers>;

export const ZGuideFlag = z.strictObject({ guides: z.boolean() });

export const ZGuideDayOffInput = z
  .strictObject({
    starts_on: ZDate,
    ends_on: ZDate,
    note: z.string().trim().max(200).default(''),
  })
  .refine((d) => d.ends_on >= d.starts_on, { error: 'The last day off comes on or after the first.', path: ['ends_on'] });

export const ZDayOffParam = z.object({ id: z.uuid({ error: 'Not a valid id.' }), dayOff: z.uuid({ error: 'Not a valid id.' }) });
export const ZSlotGuideParam = z.object({ id: z.uuid({ error: 'Not a valid id.' }), guide: z.uuid({ error: 'Not a valid id.' }) });

/** A departure's guides: who is assigned, what they can take, and who could be assigned. */
export const ZDepartureGuides = z
  .object({
    slot: z.uuid(),
    /** One guide per this many guests (the offer's); null: the departure sells without guides. */
    guests_per_guide: z.number().int().nullable(),
    /** What its guides can take (null: no limit from guides). */
    guide_seats: z.number().int().nullable(),
    booked: z.number().int(),
    held: z.number().int(),
    guides: z.array(ZGuideRef),
    /** Guides who could take it: not assigned, not off that day, and free over its window. */
    available: z.array(ZGuideRef),
  })
  .meta({ id: 'DepartureGuides' });
export type TDepartureGuides = z.infer<typeof ZDepartureGuides>;

export const ZAssignGuide = z.strictObject({ guide: z.uuid({ error: 'Not a valid id.' }) });

export const ZAutoAssignInput = z
  .strictObject({ from: ZDate, to: ZDate })
  .refine((d) => d.to >= d.from, { error: 'The range ends on or after it starts.', path: ['to'] });

/** What auto-assignment did: assignments made, and departures still short of guides. */
export const ZAutoAssignResult = z
  .object({
    assigned: z.array(z.object({ slot: z.uuid(), guide: ZGuideRef, experience_title: z.string(), local_date: z.string(), local_time: z.string() })),
    unstaffed: z.array(z.object({ slot: z.uuid(), experience_title: z.string(), local_date: z.string(), local_time: z.string(), missing: z.number().int() })),
  })
  .meta({ id: 'AutoAssignResult' });
export type TAutoAssignResult = z.infer<typeof ZAutoAssignResult>;

export const ZMyDeparturesQuery = z
  .object({ from: ZDate, to: ZDate })
  .refine((d) => d.to >= d.from, { error: 'The range ends on or after it starts.', path: ['to'] });

/** The signed-in guide's departures in a range, each with its manifest. */
export const ZMyDepartures = z
  .object({ guides: z.boolean(), departures: z.array(ZManifest) })
  .meta({ id: 'MyDepartures' });
export type TMyDepartures = z.infer<typeof ZMyDepartures>;
