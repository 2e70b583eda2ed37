import type { StaffKey } from './en';

/** German: Sie-form, the role "Owner" named as in the back office. */
export const de = {
  'activation.subject': 'Aktivieren Sie Ihr Tourdesk-Konto',
  'activation.text': 'Willkommen bei Tourdesk!\n\nAktivieren Sie Ihr Konto über diesen Link (7 Tage gültig):\n{url}',
  'accountExists.subject': 'Sie haben bereits ein Tourdesk-Konto',
  'accountExists.text':
    'Jemand, vielleicht Sie, wollte mit dieser E-Mail-Adresse eine neue Organisation bei Tourdesk anlegen. Zu dieser Adresse gibt es bereits ein Konto; es wurde nichts angelegt.\n\nAnmelden: {signIn}\nPasswort vergessen? {forgot}\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
  'passwordReset.subject': 'Ihr Tourdesk-Passwort zurücksetzen',
  'passwordReset.text':
    'Jemand möchte das Passwort dieses Kontos zurücksetzen. Wenn Sie das waren, wählen Sie hier ein neues (1 Stunde gültig):\n{url}\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
  'invitation.subject': '{inviter} hat Sie zu {organisation} bei Tourdesk eingeladen',
  'invitation.text': '{inviter} hat Sie eingeladen, {organisation} bei Tourdesk beizutreten.\n\nWählen Sie Ihr Passwort, um die Einladung anzunehmen (7 Tage gültig):\n{url}',
  'emailReset.subject': 'Die E-Mail-Adresse Ihres Tourdesk-Kontos ändern',
  'emailReset.text': 'Öffnen Sie diesen Link, um eine neue Anmelde-E-Mail-Adresse zu wählen (1 Stunde gültig):\n{url}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.',
  'emailConfirm.subject': 'Bestätigen Sie Ihre neue Tourdesk-E-Mail-Adresse',
  'emailConfirm.text':
    'Jemand möchte diese Adresse zur Anmelde-E-Mail-Adresse eines Tourdesk-Kontos machen. Wenn Sie das waren, bestätigen Sie sie über diesen Link (24 Stunden gültig):\n{url}\n\nBis dahin behält das Konto seine bisherige Adresse. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
  'emailChangeRequested.subject': 'Sie möchten Ihre Tourdesk-E-Mail-Adresse ändern',
  'emailChangeRequested.text':
    'Jemand möchte die Anmelde-E-Mail-Adresse Ihres Tourdesk-Kontos in {newEmail} ändern. Sie ändert sich erst, wenn der Link geöffnet wird, den wir an {newEmail} gesendet haben; bis dahin melden Sie sich mit dieser Adresse an. Wenn Sie das nicht angefordert haben, setzen Sie sofort Ihr Passwort zurück und wenden Sie sich an den Owner Ihrer Organisation.',
  'emailChanged.subject': 'Ihre Tourdesk-E-Mail-Adresse wurde geändert',
  'emailChanged.text':
    'Die Anmelde-E-Mail-Adresse Ihres Tourdesk-Kontos lautet jetzt {newEmail}. Wenn Sie das nicht waren, setzen Sie sofort Ihr Passwort zurück und wenden Sie sich an den Owner Ihrer Organisation.',
  'passwordChanged.subject': 'Ihr Tourdesk-Passwort wurde geändert',
  'passwordChanged.text':
    'Das Passwort Ihres Tourdesk-Kontos wurde soeben geändert, und Ihre anderen Sitzungen wurden abgemeldet. Wenn Sie das nicht waren, setzen Sie sofort Ihr Passwort zurück.',
  'partnerInvitation.subject': '{inviter} lädt Ihre Organisation zu einer Partnerschaft bei Tourdesk ein',
  'partnerInvitation.text':
    '{inviter} lädt Ihre Organisation ein, {role, select, reseller {ihre Angebote gegen Provision weiterzuverkaufen} other {Ihre Angebote als deren Anbieter zu verkaufen}}.\n\nMelden Sie sich über diesen Link bei Ihrer Organisation auf Tourdesk an, um den Vertrag zu lesen und anzunehmen oder abzulehnen: {signIn}\n\nBereits angemeldet? Öffnen Sie {ownAddress} unter der Adresse Ihrer Organisation.\n\nNoch nicht bei Tourdesk? Legen Sie zuerst Ihre Organisation an: {register}',
  'storeNotification.subject': 'Neue Buchung {reference} in {store}',
  'storeNotification.intro': '{customer} ({email}) hat in {store} gebucht:',
  'storeNotification.total': 'Gesamt {total}.',
  'calendarFeed.name': '{organisation}: Abfahrten',
  'calendarFeed.description': 'Gebuchte Plätze: {booked} von {capacity}\nManifest: {manifest}',
} satisfies Record<StaffKey, string>;
