import { z } from 'zod';

/**
 * Finding places for meeting points (the spec's location autocomplete and forward geocode): an
 * embedded data set of the world's towns and cities by default (no network needed), or a geocoder
 * server when one is configured (GEOCODER_URL), which also knows streets.
 */
export const ZLocation = z
  .object({
    /** What the list shows: "Luzern, Switzerland" or a street address. */
    label: z.string(),
    name: z.string(),
    country: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    /** Where it came from: the embedded towns and cities, or the configured geocoder. */
    source: z.enum(['embedded', 'geocoder']),
  })
  .meta({ id: 'Location' });
export type TLocation = z.infer<typeof ZLocation>;

export const ZLocationQuery = z.object({
  q: z.string().trim().min(1, { error: 'Type a place or an address.' }).max(200),
  limit: z.coerce.number().int().min(1).max(20).default(8),
});
export const ZLocationList = z.object({ results: z.array(ZLocation) }).meta({ id: 'LocationList' });
export type TLocationList = z.infer<typeof ZLocationList>;
