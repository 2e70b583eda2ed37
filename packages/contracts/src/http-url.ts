/**
 * The address when it is http(s), else null: what a page checks before it links to an address it
 * was given (data stored before ZHttpUrl refused other schemes included). Without zod: the web store
 * imports it as @tourdesk/contracts/http-url.
 */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}
