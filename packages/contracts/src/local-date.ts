/**
 * The calendar date (YYYY-MM-DD) it is now, or at `at`, in an IANA time zone: the one definition
 * of "today" for the server, the back office and the web store (no date library, no schema: the
 * store's bundle imports it as @tourdesk/contracts/local-date).
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function todayIn(timeZone: string, at: Date = new Date()) {
  let f = formats.get(timeZone);
  if (!f) formats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = f.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
