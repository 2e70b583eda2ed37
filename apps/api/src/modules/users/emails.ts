import type { BackOfficeLanguage } from '@tourdesk/contracts/i18n';
import type { Config } from '../../config';
import { bareOrigin, tenantOrigin } from '../../lib/host';
import type { Mail } from '../../lib/mailer';
import { staffTranslate } from '../../lib/staff-text';

/**
 * The account e-mails, each in its recipient's back-office language (`staffLanguage()` in
 * lib/staff-text.ts: the user's, else the organisation's main one when the back office has it,
 * else English; texts in packages/contracts/src/i18n/catalogs/staff).
 */
export interface Recipient {
  email: string;
  language: BackOfficeLanguage;
}

const link = (origin: string, path: string) => `${origin}${path}`;
const sign = '\n\n— Tourdesk';

export function activationMail(config: Config, to: Recipient, uid: string, token: string): Mail {
  const t = staffTranslate(to.language);
  const url = link(bareOrigin(config), `/auth/activate/${uid}/${token}`);
  return { to: to.email, subject: t('activation.subject'), text: `${t('activation.text', { url })}${sign}` };
}

/** Sign-up with an address that already has an account: told to its owner, never to the form. */
export function accountExistsMail(config: Config, to: Recipient): Mail {
  const t = staffTranslate(to.language);
  const text = t('accountExists.text', { signIn: link(bareOrigin(config), '/auth/login'), forgot: link(bareOrigin(config), '/auth/forgot-password') });
  return { to: to.email, subject: t('accountExists.subject'), text: `${text}${sign}` };
}

export function passwordResetMail(config: Config, to: Recipient, uid: string, token: string): Mail {
  const t = staffTranslate(to.language);
  const url = link(bareOrigin(config), `/auth/reset-password/${uid}/${token}`);
  return { to: to.email, subject: t('passwordReset.subject'), text: `${t('passwordReset.text', { url })}${sign}` };
}

export function invitationMail(
  config: Config,
  to: Recipient,
  subdomain: string,
  organisation: string,
  inviter: string,
  uid: string,
  token: string,
): Mail {
  const t = staffTranslate(to.language);
  const url = link(tenantOrigin(config, subdomain), `/auth/invite/${uid}/${token}`);
  return {
    to: to.email,
    subject: t('invitation.subject', { inviter, organisation }),
    text: `${t('invitation.text', { inviter, organisation, url })}${sign}`,
  };
}

export function emailResetMail(config: Config, to: Recipient, uid: string, token: string): Mail {
  const t = staffTranslate(to.language);
  const url = link(bareOrigin(config), `/auth/reset-email/${uid}/${token}`);
  return { to: to.email, subject: t('emailReset.subject'), text: `${t('emailReset.text', { url })}${sign}` };
}

/** The link that makes a new address (set e-mail, reset e-mail) the account's: sent to that address only. */
export function emailConfirmMail(config: Config, to: Recipient, uid: string, token: string): Mail {
  const t = staffTranslate(to.language);
  const url = link(bareOrigin(config), `/auth/confirm-email/${uid}/${token}`);
  return { to: to.email, subject: t('emailConfirm.subject'), text: `${t('emailConfirm.text', { url })}${sign}` };
}

/** Told to the current address when a new one is asked for; the change waits for the new address's link. */
export function emailChangeRequestedMail(to: Recipient, newEmail: string): Mail {
  const t = staffTranslate(to.language);
  return { to: to.email, subject: t('emailChangeRequested.subject'), text: `${t('emailChangeRequested.text', { newEmail })}${sign}` };
}

export function emailChangedMail(to: Recipient, newEmail: string): Mail {
  const t = staffTranslate(to.language);
  return { to: to.email, subject: t('emailChanged.subject'), text: `${t('emailChanged.text', { newEmail })}${sign}` };
}

export function passwordChangedMail(to: Recipient): Mail {
  const t = staffTranslate(to.language);
  return { to: to.email, subject: t('passwordChanged.subject'), text: `${t('passwordChanged.text')}${sign}` };
}
