import { BACK_OFFICE_LANGUAGES, createTranslate, pickLanguage, type BackOfficeLanguage, type Translate } from '@tourdesk/contracts/i18n';
import { STAFF_CATALOGS, type StaffKey } from '@tourdesk/contracts/i18n/catalogs';

/**
 * What Tourdesk e-mails to the people who work in an organisation (users/emails.ts: activation,
 * invitation, password and e-mail changes; a partner invitation; a store's booking notice), in
 * their back-office language (BACK_OFFICE_LANGUAGES), from one catalog
 * (packages/contracts/src/i18n/catalogs/staff). Customers get theirs through customer-text.ts.
 */
export type StaffTranslate = Translate<StaffKey>;

/**
 * The language a team member reads Tourdesk's e-mails in: their own (users.language, chosen in the
 * profile), else their organisation's main language (its first selling language) when the back
 * office speaks it, else English. An invitation passes the inviter's language for an invitee who
 * has none (the invite form asks for none).
 */
export function staffLanguage(userLanguage: string | null | undefined, organisationLanguages: readonly string[] | null | undefined): BackOfficeLanguage {
  return pickLanguage(userLanguage, BACK_OFFICE_LANGUAGES) ?? pickLanguage(organisationLanguages?.[0], BACK_OFFICE_LANGUAGES) ?? 'en';
}

const translates = new Map<BackOfficeLanguage, StaffTranslate>();

/** The team's e-mail texts in `language`. */
export function staffTranslate(language: BackOfficeLanguage): StaffTranslate {
  let t = translates.get(language);
  if (!t) translates.set(language, (t = createTranslate<StaffKey>(language, STAFF_CATALOGS[language], STAFF_CATALOGS.en)));
  return t;
}
