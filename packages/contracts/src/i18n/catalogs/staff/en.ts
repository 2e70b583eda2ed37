/**
 * What Tourdesk e-mails to the people who work in the back office (apps/api/src/lib/staff-text.ts):
 * account e-mails (activation, invitation, password and e-mail changes), an invitation to partner,
 * a store's booking notice; the texts of a team member's calendar feed. In the recipient's back-office language (BACK_OFFICE_LANGUAGES). Links
 * and money come in as arguments; the signature "— Tourdesk" is added by the sender.
 */
export const en = {
  'activation.subject': 'Activate your Tourdesk account',
  'activation.text': 'Welcome to Tourdesk!\n\nActivate your account by opening this link (valid for 7 days):\n{url}',
  'accountExists.subject': 'You already have a Tourdesk account',
  'accountExists.text':
    'Someone, perhaps you, tried to create a new Tourdesk organisation with this e-mail address, which already has an account. Nothing was created.\n\nSign in: {signIn}\nForgot your password? {forgot}\n\nIf it was not you, ignore this e-mail.',
  'passwordReset.subject': 'Reset your Tourdesk password',
  'passwordReset.text':
    'Someone asked to reset the password of this account. If it was you, choose a new one here (valid for 1 hour):\n{url}\n\nIf it was not you, ignore this e-mail: your password stays as it is.',
  'invitation.subject': '{inviter} invited you to {organisation} on Tourdesk',
  'invitation.text': '{inviter} invited you to join {organisation} on Tourdesk.\n\nChoose your password to accept (valid for 7 days):\n{url}',
  'emailReset.subject': 'Change the e-mail address of your Tourdesk account',
  'emailReset.text': 'Open this link to choose a new sign-in e-mail address (valid for 1 hour):\n{url}\n\nIf you did not ask for this, ignore this e-mail.',
  'emailConfirm.subject': 'Confirm your new Tourdesk e-mail address',
  'emailConfirm.text':
    'Someone asked to make this address the sign-in e-mail of a Tourdesk account. If it was you, confirm it by opening this link (valid for 24 hours):\n{url}\n\nUntil then the account keeps its current address. If it was not you, ignore this e-mail.',
  'emailChangeRequested.subject': 'You asked to change your Tourdesk e-mail address',
  // A plain apostrophe before a letter is literal in ICU (the English wording stays as it was sent).
  'emailChangeRequested.text':
    "Someone asked to change the sign-in e-mail address of your Tourdesk account to {newEmail}. It changes only once the link we sent to {newEmail} is followed; until then you sign in with this address. If you did not ask for this, reset your password at once and contact your organisation's owner.",
  'emailChanged.subject': 'Your Tourdesk e-mail address was changed',
  'emailChanged.text':
    "The sign-in e-mail address of your Tourdesk account is now {newEmail}. If you did not do this, reset your password at once and contact your organisation's owner.",
  'passwordChanged.subject': 'Your Tourdesk password was changed',
  'passwordChanged.text':
    'The password of your Tourdesk account was just changed, and your other sessions were signed out. If you did not do this, reset your password at once.',
  'partnerInvitation.subject': '{inviter} invited your organisation to partner on Tourdesk',
  'partnerInvitation.text':
    "{inviter} invited your organisation {role, select, reseller {to resell its offers for commission} other {to sell your offers as its supplier}}.\n\nSign in to your organisation on Tourdesk through this link to read the contract and accept or decline it: {signIn}\n\nSigned in already? Open {ownAddress} on your organisation's own address.\n\nNot on Tourdesk yet? Create your organisation first: {register}",
  'storeNotification.subject': 'New booking {reference} in {store}',
  'storeNotification.intro': '{customer} ({email}) booked in {store}:',
  'storeNotification.total': 'Total {total}.',
  'calendarFeed.name': '{organisation}: departures',
  'calendarFeed.description': 'Seats booked: {booked} of {capacity}\nManifest: {manifest}',
} as const satisfies Record<string, string>;

export type StaffKey = keyof typeof en;
