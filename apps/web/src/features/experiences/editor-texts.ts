import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/offer-editor/en';
import { texts } from '../../shared/i18n/texts';

/**
 * The offer editor's texts: its frame (EditorPage), the steps Basic info, Description, Booking
 * info, Media and Preview, and the rich-text input. Pricing, Schedule and Settings have theirs
 * (offer-settings), so each step's chunk carries only what it needs beyond this one.
 */
export const useOfferEditorT = texts('offer-editor', en);
