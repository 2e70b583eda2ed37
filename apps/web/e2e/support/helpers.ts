import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const PORT = Number(process.env.E2E_PORT ?? 3107);
export const bare = (p = '') => `http://localhost:${PORT}${p}`;
export const org = (subdomain: string, p = '') => `http://${subdomain}.localhost:${PORT}${p}`;
export const DEMO = { email: 'owner@demo.tourdesk.test', password: 'tourdesk-demo' };

interface Mail {
  to: string[];
  subject: string;
  text: string;
  /** Each attachment's name and its bytes in base64. */
  attachments?: { filename: string; content: string }[];
}

/** The text of a PDF (an e-mail's attachment or a download), page by page, as pdf.js reads it. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) pages.push((await (await doc.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  return pages.join('\n');
}
/** An e-mail's attachment whose name starts with `prefix`, as bytes. */
export const attachmentOf = (mail: Mail, prefix: string) => {
  const found = mail.attachments?.find((a) => a.filename.startsWith(prefix));
  if (!found) throw new Error(`no attachment ${prefix}… in "${mail.subject}" (${(mail.attachments ?? []).map((a) => a.filename).join(', ')})`);
  return new Uint8Array(Buffer.from(found.content, 'base64'));
};

/** The newest e-mail the SMTP sink captured for `address` whose subject matches, waiting for it to arrive. */
export async function mailOf(address: string, subject: RegExp): Promise<Mail> {
  const dir = process.env.MAIL_DIR!;
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        // Newest first, stopping at the first match: the files carry their attachments (PDFs in
        // base64), so reading every one on each poll grew slow as a run's e-mails piled up.
        for (const f of readdirSync(dir).sort().reverse()) {
          const m = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Mail;
          if (m.to.includes(address) && subject.test(m.subject)) {
            found = m;
            return true;
          }
        }
        return false;
      },
      { timeout: 10_000, message: `e-mail to ${address} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** As mailOf(), with the first link of the e-mail (which it must have). */
export async function mailTo(address: string, subject: RegExp): Promise<{ mail: Mail; link: string }> {
  const mail = await mailOf(address, subject);
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in ${mail.text}`);
  return { mail, link };
}

/** Signs in on the bare host and waits for the organisation's dashboard. */
export async function signIn(page: Page, email: string, password: string, subdomain: string) {
  await page.goto(bare('/auth/login'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(org(subdomain, '/dashboard'));
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/**
 * The local date `days` from today in the demo's zone (its offers', where the seed counts its days
 * from), YYYY-MM-DD: between 23:00 and midnight UTC, Zurich is already a day further than the
 * machine's clock. Days are counted on the calendar, so a change of summer time moves nothing.
 */
export function zurichDate(days: number) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date());
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return new Date(Date.UTC(get('year'), get('month') - 1, get('day') + days)).toISOString().slice(0, 10);
}

/** Whether a YYYY-MM-DD is in the month a calendar opens on (today's, in the demo's zone). */
export const sameMonthAsToday = (date: string) => date.slice(0, 7) === zurichDate(0).slice(0, 7);
