import { z } from 'zod';
import { ZDate } from './text';

/**
 * OCTO's own wire contract (octo.travel core + octo/pricing), served at /octo/v1: request bodies
 * and the answers, for validation and the OpenAPI document. Their TypeScript shapes are
 * @octocloud/types' (the API's octo/present.ts returns them); the names here are OCTO's.
 */

// --- OCTO ------------------------------------------------------------------------------------
const Id = z.string().min(1).max(100);
const Contact = z
  .object({
    fullName: z.string().max(200).nullish(),
    firstName: z.string().max(100).nullish(),
    lastName: z.string().max(100).nullish(),
    emailAddress: z.string().max(254).nullish(),
    phoneNumber: z.string().max(40).nullish(),
    locales: z.array(z.string().max(35)).max(20).optional(),
    postalCode: z.string().max(20).nullish(),
    country: z.string().max(2).nullish(),
    notes: z.string().max(2000).nullish(),
  })
  .meta({ id: 'OctoContact' });
/** OCTO's questions capability (octo/questions): an answer to a question the product's option lists, by its id. */
const QuestionAnswers = z.array(z.object({ questionId: Id, value: z.string().max(1000) })).max(100);
const UnitItem = z.object({ uuid: z.uuid().optional(), unitId: Id, resellerReference: z.string().max(100).optional(), contact: Contact.optional() });
const Units = z.array(z.object({ id: Id, quantity: z.number().int().min(0).max(1000) })).max(50);

export const ZOctoAvailabilityBody = z
  .object({
    productId: Id,
    optionId: Id,
    localDateStart: ZDate.optional(),
    localDateEnd: ZDate.optional(),
    availabilityIds: z.array(Id).max(500).optional(),
    units: Units.optional(),
    currency: z.string().max(3).nullish(),
  })
  .meta({ id: 'OctoAvailabilityBody' });
export const ZOctoCalendarBody = ZOctoAvailabilityBody.omit({ availabilityIds: true }).meta({ id: 'OctoAvailabilityCalendarBody' });
export const ZOctoReservationBody = z
  .object({
    uuid: z.uuid().optional(),
    productId: Id,
    optionId: Id,
    availabilityId: Id.optional(),
    expirationMinutes: z.number().int().min(1).max(1440).optional(),
    notes: z.string().max(2000).nullish(),
    /** Required by OCTO; without it the answer is UNPROCESSABLE_ENTITY (not BAD_REQUEST), as for an empty list. */
    unitItems: z.array(UnitItem).max(100).optional(),
    resellerReference: z.string().max(100).optional(),
    contact: Contact.optional(),
    currency: z.string().max(3).nullish(),
    questionAnswers: QuestionAnswers.optional(),
  })
  .meta({ id: 'OctoBookingReservationBody' });
export const ZOctoConfirmBody = z
  .object({
    emailReceipt: z.boolean().optional(),
    resellerReference: z.string().max(100).optional(),
    contact: Contact,
    unitItems: z.array(UnitItem).max(100).optional(),
    /** Not OCTO's: answers to the offer's booking questions by question id (a confirm without a required one names it as `answers.<id>`). */
    answers: z.record(z.uuid(), z.string().max(1000)).optional(),
    questionAnswers: QuestionAnswers.optional(),
  })
  .meta({ id: 'OctoBookingConfirmationBody' });
export const ZOctoUpdateBody = z
  .object({
    resellerReference: z.string().max(100).optional(),
    productId: Id.optional(),
    optionId: Id.optional(),
    availabilityId: Id.optional(),
    expirationMinutes: z.number().int().min(1).max(1440).optional(),
    notes: z.string().max(2000).nullish(),
    emailReceipt: z.boolean().optional(),
    unitItems: z.array(UnitItem).max(100).optional(),
    contact: Contact.optional(),
    questionAnswers: QuestionAnswers.optional(),
  })
  .meta({ id: 'OctoBookingUpdateBody' });
export const ZOctoExtendBody = z.object({ expirationMinutes: z.number().int().min(1).max(1440).optional() }).meta({ id: 'OctoExtendReservationBody' });
export const ZOctoCancelBody = z.object({ reason: z.string().max(500).nullish(), force: z.boolean().optional() }).meta({ id: 'OctoBookingCancellationBody' });
export const ZOctoBookingsQuery = z.object({ resellerReference: z.string().max(100).optional(), supplierReference: z.string().max(100).optional() });

const Pricing = z.object({ original: z.number().int(), retail: z.number().int(), net: z.number().int().nullable(), currency: z.string(), currencyPrecision: z.number().int(), includedTaxes: z.array(z.unknown()) });
export const ZOctoError = z.object({ error: z.string(), errorMessage: z.string() }).catchall(z.unknown()).meta({ id: 'OctoError' });
export const ZOctoSupplier = z.looseObject({ id: z.string(), name: z.string(), endpoint: z.string(), contact: z.looseObject({}) }).meta({ id: 'OctoSupplier' });
const Unit = z.looseObject({ id: z.string(), internalName: z.string(), type: z.string(), restrictions: z.looseObject({}), pricingFrom: z.array(Pricing).optional() });
export const ZOctoProduct = z
  .looseObject({
    id: z.string(),
    internalName: z.string(),
    availabilityType: z.enum(['START_TIME', 'OPENING_HOURS']),
    timeZone: z.string().optional(),
    options: z.array(z.looseObject({ id: z.string(), default: z.boolean(), units: z.array(Unit), availabilityLocalStartTimes: z.array(z.string()) })),
  })
  .meta({ id: 'OctoProduct' });
export const ZOctoAvailability = z
  .looseObject({
    id: z.string(),
    localDateTimeStart: z.string(),
    localDateTimeEnd: z.string(),
    utcCutoffAt: z.string(),
    available: z.boolean(),
    status: z.enum(['AVAILABLE', 'FREESALE', 'SOLD_OUT', 'LIMITED', 'CLOSED']),
    vacancies: z.number().int().nullable(),
    capacity: z.number().int().nullable(),
    unitPricing: z.array(Pricing.extend({ unitId: z.string() })).optional(),
  })
  .meta({ id: 'OctoAvailability' });
export const ZOctoCalendarDay = z
  .looseObject({ localDate: z.string(), available: z.boolean(), status: z.string(), vacancies: z.number().int().nullable(), capacity: z.number().int().nullable() })
  .meta({ id: 'OctoAvailabilityCalendar' });
export const ZOctoBooking = z
  .looseObject({
    id: z.string(),
    uuid: z.string(),
    status: z.enum(['ON_HOLD', 'CONFIRMED', 'EXPIRED', 'CANCELLED', 'REDEEMED', 'PENDING', 'REJECTED']),
    resellerReference: z.string().nullable(),
    supplierReference: z.string().nullable(),
    utcExpiresAt: z.string().nullable(),
    productId: z.string(),
    optionId: z.string(),
    availabilityId: z.string().nullable(),
    unitItems: z.array(z.looseObject({ uuid: z.string(), unitId: z.string(), status: z.string() })),
    pricing: Pricing.optional(),
  })
  .meta({ id: 'OctoBooking' });

/** Path parameters: a booking's uuid (checked by the service, which answers OCTO's INVALID_BOOKING_UUID), a product's id. */
export const ZOctoBookingParams = z.object({ uuid: z.string().max(100) });
export const ZOctoProductParams = z.object({ id: z.string().max(100) });
