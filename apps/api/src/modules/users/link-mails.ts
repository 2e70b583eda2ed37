import type { BackOfficeLanguage } from '@tourdesk/contracts/i18n';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Mail, MailLink, QueuedLinkMail } from '../../lib/mailer';
import { issueActionToken, type ActionPurpose } from '../auth/action-tokens';
import { findUserById } from '../auth/queries';
import { activationMail, emailConfirmMail, emailResetMail, invitationMail, passwordResetMail, type Recipient } from './emails';
import * as q from './queries';

/**
 * The account e-mails with a one-time link (activation, password reset, e-mail reset, the new
 * address's confirmation, a member's invitation), queued by kind and ids and made when they are
 * sent: the worker mints the link's token (`issueActionToken()`, as the request did before: the
 * user's earlier tokens of that purpose stop working, the new one lives its purpose's time from
 * now) and writes the text. The queue never holds a link. A retry mints again, so only the last
 * message's link works; an e-mail whose user is gone, or a confirmation for an address no longer
 * asked for, is not sent.
 */
export type AccountLink =
  | { kind: 'activation' | 'password_reset' | 'email_reset'; user: string; language: BackOfficeLanguage }
  /** `email`: the new address asked for (the token's payload). */
  | { kind: 'email_confirm'; user: string; language: BackOfficeLanguage; email: string }
  | { kind: 'invitation'; user: string; language: BackOfficeLanguage; subdomain: string; organisation: string; inviter: string };

const KINDS: readonly AccountLink['kind'][] = ['activation', 'password_reset', 'email_reset', 'email_confirm', 'invitation'];
export const isAccountLink = (link: MailLink): link is MailLink & AccountLink => (KINDS as readonly string[]).includes(link.kind);

const PURPOSE: Record<AccountLink['kind'], ActionPurpose> = {
  activation: 'activation',
  password_reset: 'password_reset',
  email_reset: 'email_reset',
  email_confirm: 'email_confirm',
  invitation: 'invitation',
};

function render(config: Config, to: Recipient, link: AccountLink, token: string): Mail {
  switch (link.kind) {
    case 'activation':
      return activationMail(config, to, link.user, token);
    case 'password_reset':
      return passwordResetMail(config, to, link.user, token);
    case 'email_reset':
      return emailResetMail(config, to, link.user, token);
    case 'email_confirm':
      return emailConfirmMail(config, to, link.user, token);
    case 'invitation':
      return invitationMail(config, to, link.subdomain, link.organisation, link.inviter, link.user, token);
  }
}

/** The e-mail to queue: whom for and its subject (written now, in the recipient's language), its link's kind and ids. */
export function accountLinkMail(config: Config, to: Recipient, link: AccountLink): QueuedLinkMail {
  // The subject needs no token: the message is written without one, and only its subject kept.
  const { subject } = render(config, to, link, '');
  return { to: to.email, subject, link };
}

/**
 * Whether a queued e-mail is still to be sent, checked when its token is minted, which may be long
 * after it was asked for (retries, an Owner's retry of a failed job): the request's own rule for
 * its kind (as `resendActivation()`, `resetPassword()`, `resetEmail()`, `resendInvitation()` and
 * `setEmail()` check it) must still hold, and it still goes to the account's address (for a
 * confirmation, to the new address still asked for). A link minted later must never reach an
 * account that has since been deactivated, has accepted its invitation, or moved address.
 */
export function stillDue(
  user: { email: string; pending_email: string | null; is_active: boolean; invited_at: Date | null; activated_at: Date | null },
  to: string,
  link: AccountLink,
): boolean {
  const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
  switch (link.kind) {
    case 'activation':
      return same(user.email, to) && !user.is_active && !user.activated_at && !user.invited_at;
    case 'invitation':
      return same(user.email, to) && !user.is_active && user.invited_at !== null;
    case 'password_reset':
    case 'email_reset':
      return same(user.email, to) && user.is_active;
    case 'email_confirm':
      return same(user.pending_email, link.email) && same(link.email, to);
  }
}

/** The message of a queued account e-mail, its token minted now; null when it is not to be sent any more. */
export function composeAccountMail(db: Db, config: Config, to: string, link: AccountLink): Promise<Mail | null> {
  return q.inSystemTransaction(db, async (tx) => {
    // The user's row locked: two jobs for one user mint one after the other (each expires the
    // tokens before it), and what is checked below cannot change before the token is stored.
    const found = await findUserById(tx, link.user);
    if (!found || !(await q.lockUser(tx, link.user)) || !stillDue(found.user, to, link)) return null;
    const token = await issueActionToken(tx, found.user, PURPOSE[link.kind], link.kind === 'email_confirm' ? { email: link.email } : {});
    return render(config, { email: to, language: link.language }, link, token);
  });
}
