import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/bookings/en';
import { texts } from '../../shared/i18n/texts';

export const useBookingsT = texts('bookings', en);
