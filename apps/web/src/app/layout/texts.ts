import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/shell/en';
import { texts } from '../../shared/i18n/texts';

/** The shell's texts: the menu, the header, the account menu, the notifications. */
export const useShellT = texts('shell', en);
