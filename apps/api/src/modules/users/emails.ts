import type { Config } from '../../config';
import { bareOrigin, tenantOrigin } from '../../lib/host';
import type { Mail } from '../../lib/mailer';

const link = (origin: string, path: string) => `${origin}${path}`;
const sign = '\n\n— Tourdesk';

export function activationMail(config: Config, to: string, uid: string, token: string): Mail {
  const url = link(bareOrigin(config), `/auth/activate/${uid}/${token}`);
  return {
    to,
    subject: 'Activate your Tourdesk account',
    text: `Welcome to Tourdesk!\n\nActivate your account by opening this link (valid for 7 days):\n${url}${sign}`,
  };
}

/** Sign-up with an address that already has an account: told to its owner, never to the form. */
export function accountExistsMail(config: Config, to: string): Mail {
  return {
    to,
    subject: 'You already have a Tourdesk account',
    text: `Someone, perhaps you, tried to create a new Tourdesk organisation with this e-mail address, which already has an account. Nothing was created.\n\nSign in: ${link(bareOrigin(config), '/auth/login')}\nForgot your password? ${link(bareOrigin(config), '/auth/forgot-password')}\n\nIf it was not you, ignore this e-mail.${sign}`,
  };
}

export function passwordResetMail(config: Config, to: string, uid: string, token: string): Mail {
  const url = link(bareOrigin(config), `/auth/reset-password/${uid}/${token}`);
  return {
    to,
    subject: 'Reset your Tourdesk password',
    text: `Someone asked to reset the password of this account. If it was you, choose a new one here (valid for 1 hour):\n${url}\n\nIf it was not you, ignore this e-mail: your password stays as it is.${sign}`,
  };
}

export function invitationMail(
  config: Config,
  to: string,
  subdomain: string,
  organisation: string,
  inviter: string,
  uid: string,
  token: string,
): Mail {
  const url = link(tenantOrigin(config, subdomain), `/auth/invite/${uid}/${token}`);
  return {
    to,
    subject: `${inviter} invited you to ${organisation} on Tourdesk`,
    text: `${inviter} invited you to join ${organisation} on Tourdesk.\n\nChoose your password to accept (valid for 7 days):\n${url}${sign}`,
  };
}

export function emailResetMail(config: Config, to: string, uid: string, token: string): Mail {
  const url = link(bareOrigin(config), `/auth/reset-email/${uid}/${token}`);
  return {
    to,
    subject: 'Change the e-mail address of your Tourdesk account',
    text: `Open this link to choose a new sign-in e-mail address (valid for 1 hour):\n${url}\n\nIf you did not ask for this, ignore this e-mail.${sign}`,
  };
}

/** The link that makes a new address (set e-mail, reset e-mail) the account's: sent to that address only. */
export function emailConfirmMail(config: Config, to: string, uid: string, token: string): Mail {
  const url = link(bareOrigin(config), `/auth/confirm-email/${uid}/${token}`);
  return {
    to,
    subject: 'Confirm your new Tourdesk e-mail address',
    text: `Someone asked to make this address the sign-in e-mail of a Tourdesk account. If it was you, confirm it by opening this link (valid for 24 hours):\n${url}\n\nUntil then the account keeps its current address. If it was not you, ignore this e-mail.${sign}`,
  };
}

/** Told to the current address when a new one is asked for; the change waits for the new address's link. */
export function emailChangeRequestedMail(to: string, newEmail: string): Mail {
  return {
    to,
    subject: 'You asked to change your Tourdesk e-mail address',
    text: `Someone asked to change the sign-in e-mail address of your Tourdesk account to ${newEmail}. It changes only once the link we sent to ${newEmail} is followed; until then you sign in with this address. If you did not ask for this, reset your password at once and contact your organisation's owner.${sign}`,
  };
}

export function emailChangedMail(to: string, newEmail: string): Mail {
  return {
    to,
    subject: 'Your Tourdesk e-mail address was changed',
    text: `The sign-in e-mail address of your Tourdesk account is now ${newEmail}. If you did not do this, reset your password at once and contact your organisation's owner.${sign}`,
  };
}

export function passwordChangedMail(to: string): Mail {
  return {
    to,
    subject: 'Your Tourdesk password was changed',
    text: `The password of your Tourdesk account was just changed, and your other sessions were signed out. If you did not do this, reset your password at once.${sign}`,
  };
}
