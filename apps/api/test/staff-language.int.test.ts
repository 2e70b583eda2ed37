import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser, tenantHost } from './http-client';
import { createOrganisation, PASSWORD } from './identity-fixtures';
import { linkIn, startMailSink, type MailSink } from './mail-sink';

/**
 * What Tourdesk e-mails to the people of an organisation is in their back-office language
 * (users.language), else the organisation's main language when the back office speaks it
 * (en, de), else English; an invitation is in the inviter's language (lib/staff-text.ts).
 */
let t: TestApp;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOGIN_LIMIT_PER_IP: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const resetMailOf = async (email: string, subject: RegExp) => {
  expect((await new Browser(t.app).post('/api/users/reset_password/', { email })).statusCode).toBe(204);
  return sink.latest(email, subject);
};

describe('account e-mails in the user’s language', () => {
  it('sends a German user’s password reset in German, with a working link', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-de' });
    expect((await owner.patch('/api/users/me/', { language: 'de' })).json().language).toBe('de');
    const mail = await resetMailOf('owner@staff-de.test', /Passwort zurücksetzen/);
    expect(mail.subject).toBe('Ihr Tourdesk-Passwort zurücksetzen');
    expect(mail.text).toContain('Wenn Sie das waren, wählen Sie hier ein neues (1 Stunde gültig)');
    expect(mail.text).not.toMatch(/reset the password|valid for/);
    const { uid, token, url } = linkIn(mail);
    expect(url.pathname).toMatch(/^\/auth\/reset-password\//);
    expect((await new Browser(t.app).post('/api/users/reset_password_confirm/', { uid, token, new_password: 'ein neues Geheimnis' })).statusCode).toBe(204);
  });

  it('keeps an English user’s password reset in English, word for word', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-en' });
    expect((await owner.patch('/api/users/me/', { language: 'en' })).json().language).toBe('en');
    const mail = await resetMailOf('owner@staff-en.test', /Reset your/);
    expect(mail.subject).toBe('Reset your Tourdesk password');
    expect(mail.text).toMatch(/^Someone asked to reset the password of this account\. If it was you, choose a new one here \(valid for 1 hour\):\nhttp\S+\/auth\/reset-password\/\S+\n\nIf it was not you, ignore this e-mail: your password stays as it is\.\n\n— Tourdesk/);
  });

  it('without a language of their own, follows the organisation’s main language when the back office has it, else English', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-org' });
    expect((await owner.patch('/api/product-configuration/', { languages: ['de', 'en'] })).statusCode).toBe(200);
    expect((await resetMailOf('owner@staff-org.test', /Passwort/)).subject).toBe('Ihr Tourdesk-Passwort zurücksetzen');
    expect((await owner.patch('/api/product-configuration/', { languages: ['fr', 'de'] })).statusCode).toBe(200);
    expect((await resetMailOf('owner@staff-org.test', /Reset your/)).subject).toBe('Reset your Tourdesk password');
    // The user's own choice comes first.
    expect((await owner.patch('/api/users/me/', { language: 'de' })).statusCode).toBe(200);
    expect((await resetMailOf('owner@staff-org.test', /Passwort/)).subject).toBe('Ihr Tourdesk-Passwort zurücksetzen');
  });

  it('tells a German user of a password and an e-mail change in German', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-change' });
    await owner.patch('/api/users/me/', { language: 'de' });
    expect((await owner.post('/api/users/set_password/', { current_password: PASSWORD, new_password: 'noch ein Geheimnis' })).statusCode).toBe(204);
    expect((await sink.latest('owner@staff-change.test', /Passwort wurde geändert/)).text).toContain('Ihre anderen Sitzungen wurden abgemeldet');
    expect((await owner.post('/api/users/set_email/', { current_password: 'noch ein Geheimnis', new_email: 'neu@staff-change.test' })).statusCode).toBe(204);
    expect((await sink.latest('owner@staff-change.test', /ändern/)).text).toContain('neu@staff-change.test');
    const confirm = await sink.latest('neu@staff-change.test', /Bestätigen Sie/);
    const { uid, token } = linkIn(confirm);
    expect((await new Browser(t.app).post('/api/users/confirm_email/', { uid, token })).statusCode).toBe(204);
    expect((await sink.latest('owner@staff-change.test', /E-Mail-Adresse wurde geändert/)).text).toContain('lautet jetzt neu@staff-change.test');
  });
});

describe('invitations in the inviter’s language', () => {
  it('invites a member in the German inviter’s language; the link works', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-team' });
    await owner.patch('/api/users/me/', { language: 'de' });
    const ownerRole = (await owner.get('/api/roles/')).json().results[0];
    const invite = await owner.post('/api/team-members/', { email: 'mia@staff-team.test', role: ownerRole.id });
    expect(invite.statusCode, invite.body).toBe(201);
    const mail = await sink.latest('mia@staff-team.test', /eingeladen/);
    expect(mail.subject).toBe('owner@staff-team.test hat Sie zu staff-team tours bei Tourdesk eingeladen');
    const { uid, token, url } = linkIn(mail);
    expect(url.hostname).toBe('staff-team.localhost');
    expect((await new Browser(t.app, tenantHost('staff-team')).post('/api/users/accept_invitation/', { uid, token, new_password: PASSWORD })).statusCode).toBe(204);
  });

  it('invites a partner organisation by e-mail in the inviting user’s language', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-partner' });
    await owner.patch('/api/users/me/', { language: 'de' });
    expect((await owner.post('/api/partners/', { partner_type: 'Resellers', email: 'desk@elsewhere.test' })).statusCode).toBe(201);
    const mail = await sink.latest('desk@elsewhere.test', /Partnerschaft/);
    expect(mail.subject).toBe('staff-partner tours lädt Ihre Organisation zu einer Partnerschaft bei Tourdesk ein');
    expect(mail.text).toContain('ihre Angebote gegen Provision weiterzuverkaufen');
    expect(mail.text).toMatch(/\/auth\/login\?next=\/sales\/partners\/invitation\/[A-Za-z0-9_-]+/);
  });
});

describe('a store’s new-booking note in the organisation’s language', () => {
  it('is German for an organisation whose main language is German', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'staff-shop', currency: 'EUR', time_zone: 'Europe/Berlin' });
    expect((await owner.patch('/api/product-configuration/', { languages: ['de', 'en'] })).statusCode).toBe(200);
    const tour = await sellableExperience(owner, 'Seetour');
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const store = (await owner.post('/api/stores/', { name: 'Seeladen', slug: 'see', notify_new_bookings: true, notify_email: 'buero@staff-shop.test' })).json();
    await owner.post(`/api/stores/${store.id}/add-experience/`, { experiences: [tour.id] });
    const guest = new Browser(t.app, 'staff-shop.localhost');
    const base = '/api/web-stores/see';
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const slot = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${addDays(todayIn('Europe/Berlin'), 5)}`)).json().slots[0].id;
    expect((await guest.post(`${base}/carts/${cart}/lines/`, { slot, quantities: { [tour.category]: 1 } }, { 'x-cart-token': token })).statusCode).toBe(201);
    const placed = await guest.post(`${base}/orders/`, { cart, customer: { email: 'gast@example.com', first_name: 'Gia', last_name: 'Gast' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const mail = await sink.latest('buero@staff-shop.test', /Neue Buchung/);
    expect(mail.subject).toBe(`Neue Buchung ${placed.json().reference} in Seeladen`);
    expect(mail.text).toMatch(/^Gia Gast \(gast@example\.com\) hat in Seeladen gebucht:\n\nSeetour, /);
    expect(mail.text).toMatch(/\n\nGesamt 49,00\s€\./);
  });
});
