import type { FastifyInstance } from 'fastify';
import { QUEUES } from '../../lib/jobs';
import { mailToSend, type ComposeLinkMail, type StoredMail } from '../../lib/mailer';
import { sweepExpiredHolds } from '../availability/holds';
import { extendHorizonsIfDue } from '../availability/horizon';
import { stripStoredOriginals } from '../media/images';
import { handleStripeEvent } from '../payments/online';
import { endOwnTrials } from '../plans/service';
import { openOrderMail, queueReminders, sendOrderMail, type StoredOrderMailJob } from '../order-mail/service';
import { purgeIdempotencyKeys } from '../orders/idempotency';
import { forgetOldCounters } from '../../lib/throttle';
import type { DeliveryJob } from '../webhooks/events';
import { deliver, purgeOldDeliveries, sweepOrphans } from '../webhooks/service';
import { queueBalanceReminders } from '../payments/reminders';
import { sendVoucherMail, type VoucherMailJob } from '../gift-vouchers/service';
import { composePartnerInvitation, type PartnerInvitationLink } from '../partners/service';
import { composeAccountMail, isAccountLink } from '../users/link-mails';
import { offerDueSeats, openWaitlistMail, sendWaitlistMail, type WaitlistMailJob } from '../waitlist/service';

/**
 * What this process works on (every process of a deployment does; each job still runs once):
 * e-mail delivery, and the recurring jobs pg-boss's clock sends (lib/jobs.ts QUEUES). At start the
 * horizon job is sent once, so a deployment that was down for days catches up at once
 * (extendHorizonsIfDue runs the extension only when the last run is a day old).
 */
export async function startWorkers(app: FastifyInstance) {
  const { jobs, mailer, database, log } = app;
  // Each statement of the strip job runs as the application's role; its rows are found across
  // organisations (server_access) and written in each one's transaction.
  // An e-mail with a one-time link is made now by the module that knows its kind (its token minted).
  const compose: ComposeLinkMail = async (to, link) => {
    if (isAccountLink(link)) return composeAccountMail(database.db, app.config, to, link);
    if (link.kind === 'partner_invitation') return composePartnerInvitation(database.db, app.config, to, link as unknown as PartnerInvitationLink);
    throw new Error(`No e-mail of the kind ${link.kind}.`);
  };
  await jobs.work<StoredMail>(QUEUES.email, async (stored, job) => {
    const mail = await mailToSend(jobs, stored, compose);
    // Its user or invitation is gone, or an old job with its text in the clear: nothing is sent.
    if (!mail) return { sent: false };
    await mailer.send(mail, job.id);
    return { sent: true };
  });
  await jobs.work<StoredOrderMailJob>(QUEUES.orderMail, async (job, meta) => sendOrderMail(database.db, app.config, (mail, id) => mailer.send(mail, id), openOrderMail(jobs, job), meta.id));
  await jobs.work<{ event: string }>(QUEUES.stripeEvent, async (job) => handleStripeEvent(database.db, app.onlinePayments.stripe, jobs, app.config, job.event));
  const webhooks = { allowPrivate: app.config.WEBHOOKS_ALLOW_PRIVATE, retryLimit: app.config.WEBHOOK_RETRY_LIMIT, retryDelaySeconds: app.config.WEBHOOK_RETRY_DELAY_SECONDS };
  await jobs.work<DeliveryJob>(QUEUES.webhook, async (job, meta) => deliver(database.db, jobs, webhooks, job, meta.id));
  await jobs.work(QUEUES.webhookSweep, async () => ({ sent: await sweepOrphans(database.db, jobs) }));
  await jobs.work(QUEUES.webhookPurge, async () => ({ forgotten: await purgeOldDeliveries(database.db) }));
  await jobs.work(QUEUES.trials, async () => ({ ended: await endOwnTrials(database.db) }));
  await jobs.work(QUEUES.reminders, async () => ({ queued: await queueReminders(database.db, jobs) }));
  await jobs.work(QUEUES.balanceReminders, async () => ({ queued: await queueBalanceReminders(database.db, app.config, jobs) }));
  await jobs.work<WaitlistMailJob>(QUEUES.waitlistMail, async (job, meta) => sendWaitlistMail(database.db, app.config, (mail, id) => mailer.send(mail, id), openWaitlistMail(jobs, job), meta.id));
  await jobs.work<VoucherMailJob>(QUEUES.voucherMail, async (job, meta) => sendVoucherMail(database.db, app.config, (mail, id) => mailer.send(mail, id), job, meta.id));
  await jobs.work(QUEUES.waitlistOffers, async () => {
    const offered = await offerDueSeats(database.db, jobs);
    if (offered > 0) jobs.wake(QUEUES.waitlistMail);
    return { offered };
  });
  await jobs.work(QUEUES.holdsSweep, async () => ({ swept: await sweepExpiredHolds(database.db) }));
  await jobs.work(QUEUES.horizon, async () => {
    const added = await extendHorizonsIfDue(database.db);
    if (added !== null) log.info({ added }, 'schedules extended to the selling horizon');
    return { added };
  });
  await jobs.work(QUEUES.idempotencyPurge, async () => ({ forgotten: await purgeIdempotencyKeys(database.db) }));
  await jobs.work(QUEUES.countersPurge, async () => ({ forgotten: await forgetOldCounters(database.db) }));
  await jobs.work(QUEUES.imagesStrip, async () => {
    let done = 0;
    for (let n = -1; n !== 0; done += n) n = await stripStoredOriginals(database.db, app.storage, log);
    return { reencoded: done };
  });
  await jobs.send(QUEUES.horizon, { reason: 'start' }, { singletonKey: 'start', singletonSeconds: 600 });
  await jobs.send(QUEUES.imagesStrip, { reason: 'start' }, { singletonKey: 'start', singletonSeconds: 600 });
}
