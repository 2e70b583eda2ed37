import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOctoBooking, ZOctoProduct, ZWebOrder } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * The offer's booking questions over OCTO (issue 31). With OCTO's questions capability the options
 * list them and a confirm must answer the required ones (questionAnswers, also taken on reserve and
 * change). A reseller without it is never refused for them: the booking is confirmed, its customer
 * is e-mailed a link to their booking page to answer, the manifest shows what is missing, and the
 * answers given there (or by the partner's PATCH) fill it in.
 */

const ZONE = 'Europe/Zurich';
const day = (n: number) => addDays(todayIn(ZONE), n);
const B = '/octo/v1';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
let swim: string;
let size: string;
let partner: Awaited<ReturnType<typeof makePartnership>>;
let plain: ReturnType<typeof partnerClient>;
let asking: ReturnType<typeof partnerClient>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'lakesupply', currency: 'EUR', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'quizagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Canyoning');
  swim = (await owner.post('/api/booking-questions/', { question: 'Can everyone swim?', answer_type: 'yes_no', required: true })).json().id;
  size = (await owner.post('/api/booking-questions/', { question: 'Wetsuit size', answer_type: 'choice', choices: ['S', 'M', 'L'], required: false })).json().id;
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { booking_questions: [swim, size], status: 'Active' })).statusCode).toBe(200);
  // The organisation's store: its booking page is where a partner's customer answers.
  expect((await owner.post('/api/stores/', { name: 'Lake shop', slug: 'lake' })).statusCode).toBe(201);
  partner = await makePartnership(t.database, { supplier: 'lakesupply', reseller: 'quizagency', offers: [tour.id] });
  plain = partnerClient(t.app, partner.key);
  asking = partnerClient(t.app, partner.key, 'octo/pricing, octo/questions');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function availabilityOn(n: number) {
  const res = await plain.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(n), localDateEnd: day(n) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }[])[0]!.id;
}
const reserve = async (client: ReturnType<typeof partnerClient>, n: number, extra: Record<string, unknown> = {}) => {
  const res = await client.post(`${B}/bookings`, { uuid: randomUUID(), productId: tour.id, optionId: 'DEFAULT', availabilityId: await availabilityOn(n), unitItems: [{ unitId: tour.category }], ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().uuid as string;
};
/** The manifest row of an order's booking on day n. */
async function manifestRow(n: number, reference: string) {
  const manifest = (await owner.get(`/api/manifests/?date=${day(n)}`)).json() as { departures: { bookings: { order_reference: string }[] }[] };
  return manifest.departures.flatMap((m) => m.bookings).find((b) => b.order_reference === reference);
}
const contact = (name: string) => ({ fullName: `${name} Guest`, emailAddress: `${name.toLowerCase()}@example.com` });

describe('OCTO: booking questions with the questions capability', () => {
  it('lists them on the option (yes/no as a radio, a choice with its options), only when asked for', async () => {
    const product = ZOctoProduct.parse((await asking.get(`${B}/products/${tour.id}`)).json());
    expect(product.options[0]).toMatchObject({
      questions: [
        { id: swim, label: 'Can everyone swim?', required: true, inputType: 'radio', selectOptions: [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }] },
        { id: size, label: 'Wetsuit size', required: false, inputType: 'radio', selectOptions: ['S', 'M', 'L'].map((v) => ({ label: v, value: v })) },
      ],
    });
    expect((await asking.get(`${B}/products/${tour.id}`)).headers['octo-capabilities']).toBe('octo/pricing, octo/questions');
    expect((await plain.get(`${B}/products/${tour.id}`)).json().options[0].questions).toBeUndefined();
  });

  it('refuses a confirm without a required answer and a wrong answer; keeps answers given on reserve and books them', async () => {
    const uuid = await reserve(asking, 3, { questionAnswers: [{ questionId: size, value: 'M' }] });
    expect((await asking.get(`${B}/bookings/${uuid}`)).json().questionAnswers).toEqual([{ questionId: size, value: 'M' }]);
    const missing = await asking.post(`${B}/bookings/${uuid}/confirm`, { contact: contact('Ada') });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'BAD_REQUEST', errorMessage: `answers.${swim}: Please answer: Can everyone swim?` });
    const wrong = await asking.post(`${B}/bookings/${uuid}/confirm`, { contact: contact('Ada'), questionAnswers: [{ questionId: swim, value: 'maybe' }] });
    expect(wrong.json()).toMatchObject({ error: 'BAD_REQUEST', errorMessage: `answers.${swim}: Answer yes or no: Can everyone swim?` });
    const done = await asking.post(`${B}/bookings/${uuid}/confirm`, { contact: contact('Ada'), questionAnswers: [{ questionId: swim, value: 'yes' }] });
    expect(done.statusCode, done.body).toBe(200);
    const booking = ZOctoBooking.parse(done.json());
    expect(booking.status).toBe('CONFIRMED');
    expect(done.json().questionAnswers).toEqual(expect.arrayContaining([{ questionId: size, value: 'M' }, { questionId: swim, value: 'yes' }]));
  });

  it('refuses an answer to a question the offer does not ask, on reserve and on change', async () => {
    const stray = randomUUID();
    const refused = await asking.post(`${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: await availabilityOn(3), unitItems: [{ unitId: tour.category }], questionAnswers: [{ questionId: stray, value: 'x' }] });
    expect(refused.json()).toMatchObject({ error: 'BAD_REQUEST', errorMessage: 'questionAnswers: This question is not asked for these bookings.' });
    const uuid = await reserve(asking, 3);
    expect((await asking.patch(`${B}/bookings/${uuid}`, { questionAnswers: [{ questionId: size, value: 'XL' }] })).json()).toMatchObject({ error: 'BAD_REQUEST' });
  });
});

describe('OCTO: a reseller without the questions capability', () => {
  let reference: string;
  let uuid: string;

  it('confirms the booking without the required answer, and the manifest shows it missing', async () => {
    uuid = await reserve(plain, 4);
    const done = await plain.post(`${B}/bookings/${uuid}/confirm`, { contact: contact('Bruno') });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'CONFIRMED' });
    expect(done.json().questionAnswers).toBeUndefined();
    reference = done.json().supplierReference;
    const row = await manifestRow(4, reference);
    expect(row).toMatchObject({ missing_answers: ['Can everyone swim?'] });
  });

  it('e-mails the customer a link to their booking page, which asks the question and takes the answer', async () => {
    const mail = await sink.latest('bruno@example.com', /Questions about your booking/);
    expect(mail.subject.startsWith(`Questions about your booking ${reference} with `)).toBe(true);
    expect(mail.text).toContain('- Can everyone swim?');
    const link = /Answer them on your booking page: (\S+)/.exec(mail.text)![1]!;
    const url = new URL(link);
    expect(url.pathname).toBe(`/s/lake/booking/${reference}`);
    const secret = url.hash.slice(1);
    const guest = new Browser(t.app, url.host);
    const page = await guest.get(`/api/web-stores/lake/orders/${reference}/`, { 'x-order-token': secret });
    expect(page.statusCode, page.body).toBe(200);
    const order = ZWebOrder.parse(page.json());
    expect(order).toMatchObject({ partner_booking: true, cancellation: { allowed: false }, questions_owed: [{ id: swim, question: 'Can everyone swim?', answer_type: 'yes_no' }] });
    // The partner's customer cannot cancel it here: the partner collected it.
    expect((await guest.post(`/api/web-stores/lake/orders/${reference}/cancel/`, undefined, { 'x-order-token': secret })).statusCode).toBe(409);
    const wrong = await guest.post(`/api/web-stores/lake/orders/${reference}/answers/`, { answers: { [swim]: 'perhaps' } }, { 'x-order-token': secret });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatchObject({ attr: `answers.${swim}` });
    expect((await guest.post(`/api/web-stores/lake/orders/${reference}/answers/`, { answers: { [swim]: 'yes' } }, { 'x-order-token': 'not-the-secret' })).statusCode).toBe(404);
    const answered = await guest.post(`/api/web-stores/lake/orders/${reference}/answers/`, { answers: { [swim]: 'yes' } }, { 'x-order-token': secret });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().questions_owed).toEqual([]);
    const row = await manifestRow(4, reference);
    expect(row).toMatchObject({ missing_answers: [], answers: [{ question: 'Can everyone swim?', answer: 'Yes' }] });
    expect((await plain.get(`${B}/bookings/${uuid}`)).statusCode).toBe(200);
    expect((await asking.get(`${B}/bookings/${uuid}`)).json().questionAnswers).toEqual([{ questionId: swim, value: 'yes' }]);
  });

  it('lets the partner answer after the confirm (PATCH questionAnswers), into the order', async () => {
    const later = await reserve(plain, 5);
    const done = await plain.post(`${B}/bookings/${later}/confirm`, { contact: contact('Carla') });
    expect(done.statusCode, done.body).toBe(200);
    const patched = await asking.patch(`${B}/bookings/${later}`, { questionAnswers: [{ questionId: swim, value: 'no' }] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().questionAnswers).toEqual([{ questionId: swim, value: 'no' }]);
    const row = await manifestRow(5, done.json().supplierReference);
    expect(row).toMatchObject({ missing_answers: [] });
  });
});
