import type { TTimeFormat } from '@tourdesk/contracts';

/**
 * How the organisation reads times (Settings → Product configuration), set when the session's
 * user is known (use-session-bootstrap); every time shown follows it unless a caller says otherwise
 * (dates.ts reads it; the rule itself is the contracts' date-format.ts). Kept apart from dates.ts so that setting it loads no date library.
 */
let organisationTimeFormat: TTimeFormat = '24h';
export const setTimeFormat = (format: TTimeFormat) => {
  organisationTimeFormat = format;
};
export const timeFormat = () => organisationTimeFormat;
