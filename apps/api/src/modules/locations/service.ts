import type { TLocation } from '@tourdesk/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { label, placeOfAddress, search, type Place } from './places';

/**
 * Autocomplete and forward geocoding: the configured geocoder (Photon's API) when there is one and
 * it answers within 3 s, else the embedded places — a slow or failing geocoder never leaves the
 * form without suggestions.
 */
const fromPlace = (p: Place): TLocation => ({ label: label(p), name: p.name, country: p.country, latitude: p.latitude, longitude: p.longitude, source: 'embedded' });

interface PhotonFeature {
  geometry: { coordinates: [number, number] };
  properties: { name?: string; street?: string; housenumber?: string; postcode?: string; city?: string; country?: string; countrycode?: string };
}

async function photon(config: Config, log: FastifyBaseLogger, q: string, limit: number): Promise<TLocation[] | null> {
  if (!config.GEOCODER_URL) return null;
  const url = new URL('api', config.GEOCODER_URL.endsWith('/') ? config.GEOCODER_URL : `${config.GEOCODER_URL}/`);
  url.searchParams.set('q', q);
  url.searchParams.set('limit', String(limit));
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
    const body = (await res.json()) as { features?: PhotonFeature[] };
    return (body.features ?? []).slice(0, limit).map((f) => {
      const p = f.properties;
      const street = [p.street, p.housenumber].filter(Boolean).join(' ');
      const town = [p.postcode, p.city].filter(Boolean).join(' ');
      const name = p.name ?? (street || p.city || q);
      return {
        label: [p.name, street, town, p.country].filter((x, i, all) => x && all.indexOf(x) === i).join(', '),
        name,
        country: p.countrycode?.toUpperCase() ?? '',
        latitude: f.geometry.coordinates[1],
        longitude: f.geometry.coordinates[0],
        source: 'geocoder' as const,
      };
    });
  } catch (error) {
    log.warn({ err: error }, 'geocoder unavailable: using the embedded places');
    return null;
  }
}

export async function autocomplete(config: Config, log: FastifyBaseLogger, q: string, limit: number): Promise<TLocation[]> {
  return (await photon(config, log, q, limit)) ?? search(q, limit).map(fromPlace);
}

/** An address to a position: the geocoder's best match, else the town or city the address names. */
export async function forwardGeocode(config: Config, log: FastifyBaseLogger, q: string): Promise<TLocation[]> {
  const found = await photon(config, log, q, 1);
  if (found && found.length > 0) return found;
  const place = placeOfAddress(q);
  return place ? [fromPlace(place)] : [];
}
