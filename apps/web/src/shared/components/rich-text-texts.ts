import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/offer-editor/en';
import { texts } from '../i18n/texts';

/** RichTextInput's texts (toolbar, link form): in the offer editor's domain, its only user. */
export const useRichTextT = texts('offer-editor', en);
