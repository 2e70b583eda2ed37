import { and, eq, sql } from 'drizzle-orm';
import { PERMISSION_SETS } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { holdAlone, userCart } from '../modules/availability/holds';
import { checkout } from '../modules/orders/bookings';
import { invoiceOrder, presentOrder } from '../modules/orders/records';
import { updateCustomer } from '../modules/orders/customers';
import { cancelOrder, changeLine, recordPayment } from '../modules/orders/service';
import { regenerateSlots } from '../modules/availability/slots';
import { addDays, todayIn } from '../lib/local-time';
import sharp from 'sharp';
import {
  baseAccount,
  calendarFeed,
  bookingQuestion,
  cancellationPolicy,
  cart,
  experience,
  image,
  inventoryItem,
  inventoryItemCategory,
  order,
  meetingPoint,
  pricingCategory,
  pricingRate,
  role,
  scheduleRule,
  slot,
  store,
  storeExperience,
  storeVisit,
  systemNotification,
  users,
  video,
  webhookEndpoint,
} from '../db/schema';
import type { Storage } from '../lib/storage';
import { hashPassword } from '../modules/auth/crypto';
import { DEFAULT_TIER } from '../modules/plans/tiers';
import { seedQrDemo } from './demo-qr';
import { seedPromoDemo } from './demo-promo';
import { seedDepositsDemo } from './demo-deposits';
import { seedVoucherDemo } from './demo-vouchers';
import { seedCheckInDemo } from './demo-check-in';
import { seedWaitlistDemo } from './demo-waitlist';
import { seedGuidesDemo } from './demo-guides';
import { seedPoolsDemo } from './demo-pools';
import { seedOctoDemo, seedPartnerOffers } from './demo-octo';
import { seedPartnerDemo } from './demo-partners';
import { seedResaleDemo } from './demo-resales';
import { transaction } from '../db/execute';

export const DEMO = {
  accountName: 'Alpine Trails & Tours',
  subdomain: 'demo',
  email: 'owner@demo.tourdesk.test',
  password: 'tourdesk-demo',
} as const;

const NOTIFICATIONS = [
  {
    title: 'Welcome to Tourdesk',
    body: 'Your back office for tours and activities: offers, schedules, bookings and orders in one place.',
    level: 'info',
    days_ago: 0,
  },
  {
    title: 'Start times stay in local time',
    body: 'Across daylight-saving changes a 09:00 tour stays at 09:00 in its own time zone.',
    level: 'warning',
    days_ago: 2,
  },
  {
    title: 'Scheduled maintenance completed',
    body: 'The database upgrade finished without downtime.',
    level: 'info',
    days_ago: 9,
  },
] as const;

const ALL_SETS = PERMISSION_SETS.map((s) => s.id);

/**
 * Seeds the demo organisation once: its owner (the printed sign-in), two more roles, a guide who
 * can only view offers, and a pending invitation. The organisation is keyed on its subdomain and
 * skipped on conflict, so running this on every start changes nothing the second time.
 * Returns true when it created the organisation.
 */
let ownerId = '';

/** The demo's help videos: one for the morning's first look, two for the door staff. */
const HELP_VIDEOS = [
  { topic: 'dashboard', title: 'Your first week: offers, a store and the day’s departures', url: 'https://videos.alpine-trails.example/first-week' },
  { topic: 'check-in', title: 'Checking in guests at the meeting point with your phone', url: 'https://videos.alpine-trails.example/check-in-at-the-meeting-point' },
  { topic: 'check-in', title: 'No signal at the meeting point: scanning offline', url: 'https://videos.alpine-trails.example/offline-scanning' },
] as const;

export async function seedDemo(db: Db, storage?: Storage): Promise<boolean> {
  // Seeded already (every start after the first): no password to hash, nothing to do.
  const [existing] = await db.select({ id: baseAccount.id }).from(baseAccount).where(eq(baseAccount.subdomain, DEMO.subdomain));
  if (existing) return false;
  const passwordHash = await hashPassword(DEMO.password);
  const created = await transaction(db, async (tx) => {
    const inserted = await tx
      .insert(baseAccount)
      .values({
        name: DEMO.accountName,
        subdomain: DEMO.subdomain,
        kind: 'supplier',
        legal_name: `${DEMO.accountName} AG`,
        billing_address: 'Haldenstrasse 12\n6006 Luzern\nSwitzerland',
        billing_email: 'billing@demo.tourdesk.test',
        vat_number: 'CHE-109.322.551 MWST',
        vat_rate_bp: 810,
        time_zone: 'Europe/Zurich',
        currency: 'CHF',
        // Its web store sells in every language (English first: the unprefixed address); `npm start` shows the switch.
        languages: ['en', 'de', 'fr', 'it', 'es'],
        subscription_tier_id: DEFAULT_TIER.supplier,
      })
      .onConflictDoNothing({ target: baseAccount.subdomain })
      .returning({ id: baseAccount.id });
    const account = inserted[0];
    if (!account) return false;

    const [owner, frontDesk, guide] = await tx
      .insert(role)
      .values([
        { account_id: account.id, name: 'Owner', is_owner: true, permission_set_ids: ALL_SETS },
        {
          account_id: account.id,
          name: 'Front desk',
          permission_set_ids: ['manage_orders', 'manage_customers', 'manage_cart', 'view_experiences'],
        },
        { account_id: account.id, name: 'Guide', permission_set_ids: ['view_experiences'] },
      ])
      .returning();

    const now = new Date();
    ownerId = randomUUID();
    await tx.insert(users).values([
      {
        id: ownerId,
        account_id: account.id,
        email: DEMO.email,
        first_name: 'Dana',
        last_name: 'Demo',
        password_hash: passwordHash,
        role_id: owner!.id,
        is_active: true,
        activated_at: now,
        email_verified_at: now,
      },
      {
        account_id: account.id,
        email: 'guide@demo.tourdesk.test',
        first_name: 'Gian',
        last_name: 'Guide',
        password_hash: passwordHash,
        role_id: guide!.id,
        is_active: true,
        activated_at: now,
        email_verified_at: now,
      },
      {
        account_id: account.id,
        email: 'frontdesk@demo.tourdesk.test',
        first_name: 'Fiona',
        last_name: 'Front',
        role_id: frontDesk!.id,
        is_active: false,
        invited_at: now,
      },
    ]);

    // The owner's calendar feed (modules/calendar-feeds): its address is made from this row's id and
    // the server's key, so Profile → Calendar feed shows a working one after `npm start`.
    await tx.insert(calendarFeed).values({ account_id: account.id, user_id: ownerId });

    const kayak = await seedCatalogue(tx, account.id, storage);
    // Before anything enters the demo's tenant scope: the reseller alpine-agency and its partnership.
    await seedPartnerDemo(tx, account.id, kayak.id, passwordHash);
    // The key of that partnership (it reads the reseller's account: before the tenant scope is entered).
    await seedOctoDemo(tx, account.id);
    await tx.insert(systemNotification).values(
      NOTIFICATIONS.map((n) => ({
        title: n.title,
        body: n.body,
        level: n.level,
        published_at: sql`now() - make_interval(days => ${n.days_ago})`,
      })),
    );
    // Help videos the owner keeps for the team, on the pages where they help (titles typed by the
    // owner: the demo looks nothing up on the internet; .example addresses lead nowhere real).
    await tx.insert(video).values(
      HELP_VIDEOS.map((v, i) => ({ account_id: account.id, url: v.url, topic: v.topic, title: v.title, provider: null, position: i })),
    );
    // A webhook endpoint, disabled, at an .example address (Settings → Webhooks is not empty). It has
    // no secret: the seed has no key to seal one with; "Rotate secret" gives it one (modules/webhooks).
    await tx.insert(webhookEndpoint).values({
      account_id: account.id,
      url: 'https://hooks.alpine-trails.example/tourdesk',
      description: 'Booking sync to our office calendar (demo)',
      event_types: ['order.created', 'order.cancelled', 'booking.created', 'booking.changed', 'booking.cancelled'],
      enabled: false,
      secret_sealed: '',
      secret_hint: '',
    });
    // Last: holding seats enters the organisation's tenant scope for the rest of the transaction.
    await seedBookings(tx, account.id, kayak);
    await seedStore(tx, account.id, kayak);
    await seedQrDemo(tx, account.id, kayak);
    await seedPromoDemo(tx, account.id, ownerId, kayak);
    await seedVoucherDemo(tx, account.id, ownerId, kayak);
    await seedCheckInDemo(tx, account.id, ownerId, kayak);
    await seedWaitlistDemo(tx, account.id, kayak);
    await seedDepositsDemo(tx, account.id, kayak);
    await seedGuidesDemo(tx, account.id, ownerId);
    await seedPoolsDemo(tx, account.id, kayak);
    await seedPartnerOffers(tx, { tx: tx, accountId: account.id, currency: 'CHF' }, kayak, regenerateSlots, todayIn('Europe/Zurich'));
    return true;
  });
  // After the partners' demo (the partnership demo → alpine-agency), in transactions of its own: nothing without it.
  if (created) await seedResaleDemo(db);
  return created;
}

/** A picture for a demo offer: a sky-to-water gradient with a sun, drawn here. */
async function demoPicture(hue: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,75%)"/><stop offset="0.55" stop-color="hsl(${hue + 20},60%,55%)"/>
      <stop offset="0.56" stop-color="hsl(${hue + 180},45%,35%)"/><stop offset="1" stop-color="hsl(${hue + 190},50%,20%)"/></linearGradient></defs>
    <rect width="1200" height="800" fill="url(#g)"/><circle cx="860" cy="300" r="90" fill="hsl(45,95%,70%)"/>
    <polygon points="0,450 260,250 480,450" fill="hsl(${hue + 200},25%,30%)"/><polygon points="300,450 620,180 900,450" fill="hsl(${hue + 210},20%,40%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/**
 * The demo's catalogue: pricing categories, a meeting point, a cancellation policy, a booking
 * question, extras, and three offers — one on sale with pictures and prices, one Draft, one Inactive.
 */
/** The offer the demo bookings are for, with its categories, its required question and its extra. */
interface DemoKayak {
  id: string;
  adult: string;
  child: string;
  swim: string;
  lunch: string;
}

async function seedCatalogue(tx: Db, accountId: string, storage?: Storage): Promise<DemoKayak> {
  const [adult, child, infant] = await tx
    .insert(pricingCategory)
    .values([
      { account_id: accountId, type: 'Adult', label: 'Adult', min_age: 16, translations: { de: { label: 'Erwachsene' }, fr: { label: 'Adulte' } } },
      { account_id: accountId, type: 'Child', label: 'Child', min_age: 4, max_age: 15, translations: { de: { label: 'Kind' }, fr: { label: 'Enfant' } } },
      { account_id: accountId, type: 'Infant', label: 'Infant', max_age: 3, occupies_seat: false, translations: { de: { label: 'Kleinkind' }, fr: { label: 'Bébé' } } },
    ])
    .returning();
  const [harbour] = await tx
    .insert(meetingPoint)
    .values({ account_id: accountId, name: 'Lucerne boat station, pier 3', address: 'Werftestrasse 5, 6002 Luzern', latitude: 47.0502, longitude: 8.3105, instructions: 'Look for the orange Alpine Trails flag.' })
    .returning();
  const [flexible] = await tx
    .insert(cancellationPolicy)
    .values({
      account_id: accountId,
      name: 'Flexible',
      description: 'Full refund up to 24 hours before, half up to 6 hours before.',
      translations: {
        de: { name: 'Flexibel', description: 'Volle Rückerstattung bis 24 Stunden vorher, die Hälfte bis 6 Stunden vorher.' },
        fr: { name: 'Flexible', description: 'Remboursement intégral jusqu’à 24 heures avant, la moitié jusqu’à 6 heures avant.' },
      },
      rules: [
        { hours_before: 24, refund_percent: 100 },
        { hours_before: 6, refund_percent: 50 },
        { hours_before: 0, refund_percent: 0 },
      ],
    })
    .returning();
  const [diet, swim] = await tx
    .insert(bookingQuestion)
    .values([
      { account_id: accountId, question: 'Any dietary requirements?', answer_type: 'text', per_participant: true, translations: { de: { question: 'Besondere Ernährungswünsche?' }, fr: { question: 'Des exigences alimentaires ?' } } },
      { account_id: accountId, question: 'Can everyone in the group swim?', answer_type: 'yes_no', required: true, translations: { de: { question: 'Können alle in der Gruppe schwimmen?' }, fr: { question: 'Tout le monde dans le groupe sait-il nager ?' } } },
    ])
    .returning();
  const [food] = await tx.insert(inventoryItemCategory).values({ account_id: accountId, name: 'Food & drink' }).returning();
  const [gear] = await tx.insert(inventoryItemCategory).values({ account_id: accountId, name: 'Gear' }).returning();
  const [lunch] = await tx
    .insert(inventoryItem)
    .values([
      {
        account_id: accountId,
        type: 'Extras',
        name: 'Picnic lunch',
        price: 1800,
        currency: 'CHF',
        category_id: food!.id,
        tags: ['food', 'local'],
        translations: { de: { name: 'Picknick-Mittagessen' }, fr: { name: 'Pique-nique' } },
      },
      { account_id: accountId, type: 'Equipment', name: 'Hiking poles (pair)', price: 800, currency: 'CHF', category_id: gear!.id, tags: ['hiking'], stock: 30 },
      { account_id: accountId, type: 'Package', name: 'Photo package', price: 3500, currency: 'CHF', tags: ['photo'] },
    ])
    .returning();

  const offers = [
    {
      title: 'Sunrise Kayak on Lake Lucerne',
      status: 'Active',
      type: 'Ticket & Passes',
      short_description: 'Paddle out at dawn as the Alps turn pink.',
      long_description: '<p>Glide across the still morning water with a local guide, stop for coffee on a quiet beach, and be back before the town wakes up.</p>',
      highlights: ['Sunrise over the Alps', 'Coffee stop on the beach', 'Small groups of 8'],
      inclusions: ['Kayak and paddle', 'Life jacket', 'Guide'],
      what_to_bring: ['Warm layer', 'Water bottle'],
      duration_minutes: 150,
      languages: ['en', 'de'],
      max_participants: 8,
      prices: [[adult!.id, 8900, 7100], [child!.id, 4900, 3900], [infant!.id, 0, 0]] as const,
      pictures: [200, 20],
      // The store serves these for Accept-Language or the address's de / fr (issue 30), field by field from English.
      translations: {
        de: {
          title: 'Kajak bei Sonnenaufgang auf dem Vierwaldstättersee',
          short_description: 'Paddeln im Morgengrauen, während die Alpen rosa leuchten.',
          long_description: '<p>Gleiten Sie mit einem einheimischen Guide über das stille Morgenwasser, machen Sie an einem ruhigen Strand eine Kaffeepause und seien Sie zurück, bevor die Stadt erwacht.</p>',
          highlights: ['Sonnenaufgang über den Alpen', 'Kaffeepause am Strand', 'Kleine Gruppen von 8'],
          inclusions: ['Kajak und Paddel', 'Schwimmweste', 'Guide'],
          what_to_bring: ['Warme Kleidungsschicht', 'Trinkflasche'],
          meeting_instructions: 'Treffpunkt 15 Minuten vor dem Start an der Schiffstation, Steg 3.',
        },
        fr: {
          title: 'Kayak au lever du soleil sur le lac des Quatre-Cantons',
          short_description: 'Pagayez à l’aube pendant que les Alpes se teintent de rose.',
          long_description: '<p>Glissez sur l’eau calme du matin avec un guide local, faites une pause café sur une plage tranquille et soyez de retour avant le réveil de la ville.</p>',
          highlights: ['Lever du soleil sur les Alpes', 'Pause café sur la plage', 'Petits groupes de 8'],
          inclusions: ['Kayak et pagaie', 'Gilet de sauvetage', 'Guide'],
          what_to_bring: ['Une couche chaude', 'Une gourde'],
          meeting_instructions: 'Rendez-vous 15 minutes avant le départ à la gare des bateaux, quai 3.',
        },
      },
    },
    {
      title: 'Glacier Hike with a Mountain Guide',
      status: 'Inactive',
      type: 'Ticket & Passes',
      short_description: 'Crampons on, into the blue ice of the Titlis glacier.',
      long_description: '<p>A full day on the ice with a certified mountain guide. All technical gear included.</p>',
      highlights: ['Blue ice caves', 'Certified guide'],
      inclusions: ['Crampons, harness, helmet'],
      what_to_bring: ['Hiking boots'],
      duration_minutes: 420,
      languages: ['en'],
      max_participants: 10,
      prices: [[adult!.id, 19500, 16000]] as const,
      pictures: [190],
      translations: {
        de: { title: 'Gletscherwanderung mit Bergführer', short_description: 'Steigeisen an und hinein ins blaue Eis des Titlisgletschers.' },
        fr: { title: 'Randonnée glaciaire avec un guide de montagne', short_description: 'Crampons aux pieds, dans la glace bleue du glacier du Titlis.' },
      },
    },
    {
      title: 'E-bike Rental, half day',
      status: 'Draft',
      type: 'Rental',
      short_description: 'Explore the lakeside villages at your own pace.',
      long_description: '',
      highlights: [],
      inclusions: ['Helmet', 'Lock'],
      what_to_bring: [],
      duration_minutes: 240,
      languages: ['en', 'de', 'fr'],
      max_participants: 4,
      prices: [] as const,
      pictures: [],
      translations: {},
    },
  ];
  let first: DemoKayak | undefined;
  for (const offer of offers) {
    const [row] = await tx
      .insert(experience)
      .values({
        account_id: accountId,
        title: offer.title,
        status: offer.status,
        type: offer.type,
        short_description: offer.short_description,
        long_description: offer.long_description,
        highlights: offer.highlights,
        inclusions: offer.inclusions,
        what_to_bring: offer.what_to_bring,
        duration_minutes: offer.duration_minutes,
        languages: offer.languages,
        max_participants: offer.max_participants,
        meeting_point_ids: [harbour!.id],
        cancellation_policy_id: flexible!.id,
        booking_question_ids: [diet!.id, swim!.id],
        extra_item_ids: [lunch!.id],
        meeting_instructions: 'Meet 15 minutes before the start at the boat station, pier 3.',
        translations: offer.translations,
      })
      .returning();
    first ??= { id: row!.id, adult: adult!.id, child: child!.id, swim: swim!.id, lunch: lunch!.id };
    for (const [categoryId, retail, net] of offer.prices) {
      await tx.insert(pricingRate).values({ account_id: accountId, experience_id: row!.id, pricing_category_id: categoryId, retail_price: retail, net_price: net, currency: 'CHF' });
    }
    if (!storage) continue;
    for (const [position, hue] of offer.pictures.entries()) {
      const data = await demoPicture(hue);
      const thumb = await sharp(data).resize({ width: 480 }).webp({ quality: 80 }).toBuffer();
      const key = `${accountId}/${randomBytes(12).toString('base64url')}.jpg`;
      const thumbKey = `${accountId}/${randomBytes(12).toString('base64url')}.webp`;
      await storage.put(key, data);
      await storage.put(thumbKey, thumb);
      await tx.insert(image).values({
        account_id: accountId,
        experience_id: row!.id,
        status: 'ready',
        original_name: `demo-${position + 1}.jpg`,
        content_type: 'image/jpeg',
        width: 1200,
        height: 800,
        size_bytes: data.length,
        storage_key: key,
        thumbnail_key: thumbKey,
        position,
      });
    }
  }
  return first!;
}

/**
 * The kayak tour runs at 07:00 and 09:30 every day with 12 seats. Eight orders: booked at the
 * counter over the last weeks, paid in full, in part or not yet, one invoiced, one cancelled and
 * refunded, one cancelled with its refund still due, one invoiced to a business and corrected by a
 * credit note.
 */
async function seedBookings(tx: Db, accountId: string, kayak: DemoKayak) {
  const ctx = { tx, accountId, currency: 'CHF', userId: ownerId };
  const zone = 'Europe/Zurich';
  await tx.insert(scheduleRule).values({ account_id: accountId, experience_id: kayak.id, valid_from: todayIn(zone), start_times: ['07:00', '09:30'], capacity: 12 });
  await regenerateSlots(ctx, kayak.id);
  const cartRow = await userCart(ctx, ownerId);
  const guests = [
    { email: 'amelie.martin@example.com', first_name: 'Amélie', last_name: 'Martin', country: 'FR', adults: 2, children: 1, day: 1, booked: 2, paid: 'all', invoice: true },
    { email: 'jonas.weber@example.com', first_name: 'Jonas', last_name: 'Weber', country: 'DE', adults: 4, children: 0, day: 1, booked: 0, paid: 5000 },
    { email: 'sara.rossi@example.com', first_name: 'Sara', last_name: 'Rossi', country: 'IT', adults: 2, children: 2, day: 2, booked: 0 },
    { email: 'liam.oconnor@example.com', first_name: 'Liam', last_name: "O'Connor", country: 'IE', adults: 3, children: 0, day: 4, booked: 12, paid: 'all' },
    { email: 'yuki.tanaka@example.com', first_name: 'Yuki', last_name: 'Tanaka', country: 'JP', adults: 2, children: 0, day: 6, booked: 25, paid: 2000 },
    { email: 'emma.schmid@example.com', first_name: 'Emma', last_name: 'Schmid', country: 'CH', adults: 2, children: 0, day: 3, booked: 45, paid: 'all', cancel: true, refund: true },
    // Paid, then cancelled: the money is still to be given back (Refund due).
    { email: 'lukas.meier@example.com', first_name: 'Lukas', last_name: 'Meier', country: 'CH', adults: 3, children: 0, day: 7, booked: 3, paid: 'all', cancel: true },
    // A business customer invoiced for two adults and two children; one child did not come, so the
    // invoice is corrected: a credit note cancels it and a new invoice states what is still sold.
    { email: 'office@keller-reisen.example', first_name: 'Noah', last_name: 'Keller', country: 'CH', adults: 2, children: 2, day: 5, booked: 8, invoice: true, correct: true },
  ] as const;
  for (const [i, g] of guests.entries()) {
    const date = addDays(todayIn(zone), g.day);
    const [s] = await tx.select().from(slot).where(and(eq(slot.experience_id, kayak.id), eq(slot.local_date, date), eq(slot.local_time, '07:00')));
    if (!s) continue;
    await holdAlone(tx, { accountId, userId: ownerId }, s.id, { quantities: { [kayak.adult]: g.adults, ...(g.children ? { [kayak.child]: g.children } : {}) }, extras: g.children ? { [kayak.lunch]: g.adults + g.children } : {} });
    const made = await presentOrder(
      ctx,
      await checkout(ctx, cartRow.id, ownerId, {
        // A phone number each: the manifest shows it to the guide.
        customer: { email: g.email, first_name: g.first_name, last_name: g.last_name, phone: `+41 79 555 ${String(10 + i * 7).padStart(2, '0')} ${String(20 + i * 3).padStart(2, '0')}`, country: g.country, marketing_consent: false },
        answers: { [kayak.swim]: 'yes' },
      }),
    );
    const payment =
      'paid' in g
        ? await recordPayment(ctx, made.id, { amount: g.paid === 'all' ? made.total : g.paid, currency: 'CHF', method: g.paid === 'all' ? 'card terminal' : 'cash', reference: g.paid === 'all' ? 'Terminal 1' : '' })
        : null;
    if ('correct' in g) {
      await updateCustomer(ctx, made.customer.id, { company: 'Keller Reisen GmbH', address: 'Bahnhofstrasse 20\n8001 Zürich', vat_number: 'CHE-222.333.444 MWST' });
    }
    if ('invoice' in g) await invoiceOrder(ctx, made.id);
    if ('correct' in g) await changeLine(ctx, made.id, made.bookings[0]!.id, { quantities: { [kayak.adult]: g.adults, [kayak.child]: g.children - 1 }, extras: { [kayak.lunch]: g.adults + g.children - 1 } });
    if ('cancel' in g) await cancelOrder(ctx, made.id);
    if ('refund' in g && payment) {
      await recordPayment(ctx, made.id, { amount: -made.total, currency: 'CHF', method: 'card terminal', reference: 'Terminal 1', refund_of: payment.id, reason: 'Cancelled for bad weather' });
    }
    if (g.booked) {
      const at = sql`now() - make_interval(days => ${g.booked})`;
      await tx.update(order).set({ created_at: at, updated_at: at }).where(eq(order.id, made.id));
    }
  }
}

/**
 * The web store "kayak" (/s/kayak/ on the demo's host) with the demo's offers (the glacier hike is
 * Inactive, so customers do not see it yet), four weeks of visits and a few web orders: guest
 * carts held and checked out as a customer does, without a seller, recorded in the store; one
 * paid and cancelled by its customer under the policy's 50 %, its fee kept and the rest refunded.
 */
async function seedStore(tx: Db, accountId: string, kayak: DemoKayak) {
  const ctx = { tx, accountId, currency: 'CHF' };
  const zone = 'Europe/Zurich';
  const offers = await tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, accountId), sql`${experience.status} <> 'Draft'`));
  const [shop] = await tx
    .insert(store)
    .values({
      account_id: accountId,
      name: 'Alpine Trails online',
      slug: 'kayak',
      currency: 'CHF',
      primary_color: '#e8590c',
      intro: 'Sunrise paddles on Lake Lucerne and guided days in the mountains. Book online, pay on the day.',
      terms_url: 'https://demo.tourdesk.test/terms',
      contact_email: 'hello@demo.tourdesk.test',
      contact_phone: '+41 41 555 01 23',
      translations: {
        de: { intro: 'Paddeln bei Sonnenaufgang auf dem Vierwaldstättersee und geführte Tage in den Bergen. Online buchen, am Tag selbst bezahlen.' },
        fr: { name: 'Alpine Trails en ligne', intro: 'Pagayer au lever du soleil sur le lac des Quatre-Cantons et journées guidées en montagne. Réservez en ligne, payez le jour même.' },
        it: { intro: 'Pagaiate all’alba sul Lago dei Quattro Cantoni e giornate guidate in montagna. Prenotate online, pagate il giorno stesso.' },
        es: { intro: 'Remo al amanecer en el lago de los Cuatro Cantones y días guiados en la montaña. Reserve en línea y pague el mismo día.' },
      },
    })
    .returning();
  await tx.insert(storeExperience).values([kayak.id, ...offers.map((o) => o.id).filter((id) => id !== kayak.id)].map((id, position) => ({ account_id: accountId, store_id: shop!.id, experience_id: id, position })));
  const today = todayIn(zone);
  await tx.insert(storeVisit).values(
    Array.from({ length: 28 }, (_, d) => Array.from({ length: 3 + ((d * 7) % 9) }, (__, v) => ({ account_id: accountId, store_id: shop!.id, visit_id: `demo-${d}-${v}`, day: addDays(today, -d) }))).flat(),
  );
  const web = [
    { email: 'hannah.berg@example.com', first_name: 'Hannah', last_name: 'Berg', adults: 2, day: 2, booked: 1 },
    { email: 'tom.fischer@example.com', first_name: 'Tom', last_name: 'Fischer', adults: 1, day: 6, booked: 4 },
    { email: 'lea.moser@example.com', first_name: 'Léa', last_name: 'Moser', adults: 3, day: 9, booked: 9 },
    // Cancelled by the customer under the policy's 50 %: the fee kept, the rest refunded.
    { email: 'nina.graf@example.com', first_name: 'Nina', last_name: 'Graf', adults: 2, day: 1, booked: 5, cancelled: true },
  ];
  for (const g of web) {
    const [s] = await tx.select().from(slot).where(and(eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, g.day)), eq(slot.local_time, '09:30')));
    if (!s) continue;
    const [c] = await tx.insert(cart).values({ account_id: accountId, store_id: shop!.id, token_hash: randomBytes(32).toString('hex') }).returning({ id: cart.id });
    await holdAlone(tx, { accountId, cartId: c!.id }, s.id, { quantities: { [kayak.adult]: g.adults }, extras: {} });
    const made = await checkout(ctx, c!.id, null, {
      customer: { email: g.email, first_name: g.first_name, last_name: g.last_name, phone: '', country: 'CH', marketing_consent: false },
      answers: { [kayak.swim]: 'yes' },
      storeId: shop!.id,
      manageTokenHash: randomBytes(32).toString('hex'),
    });
    const at = sql`now() - make_interval(days => ${g.booked})`;
    await tx.update(order).set({ created_at: at, updated_at: at }).where(eq(order.id, made));
    await tx.update(cart).set({ created_at: at }).where(eq(cart.id, c!.id));
    if (g.cancelled) {
      // Paid in advance, then cancelled by the customer on their booking page 12 hours before the
      // start, when the policy gave half back: the other half is kept as the cancellation fee, and
      // the half due back was refunded — the order is settled.
      const staff = { ...ctx, userId: ownerId };
      const paid = await recordPayment(staff, made, { amount: (await presentOrder(staff, made)).total, currency: 'CHF', method: 'bank transfer', reference: 'Transfer in advance' });
      await cancelOrder(ctx, made, { keepCancellationFee: true, now: new Date(s.starts_at.getTime() - 12 * 3_600_000) });
      const due = await presentOrder(staff, made);
      await recordPayment(staff, made, { amount: due.total - due.paid, currency: 'CHF', method: 'bank transfer', reference: 'Refund', refund_of: paid!.id, reason: 'Cancelled by the customer: the policy refunds half' });
    }
  }
}
