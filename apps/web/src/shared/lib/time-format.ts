export type TimeFormat = '24h' | '12h';

/**
 * How the organisation reads times (Settings → Product configuration), set when the session's
 * user is known (use-session-bootstrap); every time shown follows it unless a caller says otherwise
 * (dates.ts reads it). Kept apart from dates.ts so that setting it loads no date library.
 */
let organisationTimeFormat: TimeFormat = '24h';
export const setTimeFormat = (format: TimeFormat) => {
  organisationTimeFormat = format;
};
export const timeFormat = () => organisationTimeFormat;
