import { todayIn } from '@tourdesk/contracts/local-date';
import { browserTimeZone } from '../lib/locale-defaults';
import { useAppSelector } from './store';

/** The organisation's IANA zone (Settings → Organisation); the browser's until the session's user is known. */
export const useOrganisationZone = () => useAppSelector((s) => s.auth.user?.base_account?.time_zone) ?? browserTimeZone();

/**
 * Today (YYYY-MM-DD) in the organisation's zone: the day its departures, manifests and schedules
 * count from, whatever zone the browser is in (the contracts' todayIn()).
 */
export const useToday = () => todayIn(useOrganisationZone());
