import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { TErrorEnvelope, TErrorItem, TErrorType } from '@tourdesk/contracts';
import { isConnectionLost, pgError } from './db-errors';
import { httpErrors } from './metrics';

/**
 * The one error model. Services throw `AppError(code, detail, attr?)`; this module alone
 * maps a code to an HTTP status and writes the envelope `{ type, errors: [...] }`.
 */
const STATUS_BY_CODE = {
  invalid: 400,
  required: 400,
  parse_error: 400,
  not_authenticated: 401,
  authentication_failed: 401,
  permission_denied: 403,
  plan_required: 403,
  plan_limit: 403,
  /** A public call that must carry a solved proof-of-work (X-Altcha: the web store's; a slowed sign-in's is a 429). */
  challenge_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  sold_out: 409,
  hold_expired: 409,
  already_checked_in: 409,
  wrong_day: 409,
  lock_timeout: 503,
  payload_too_large: 413,
  uri_too_long: 414,
  idempotency_error: 422,
  unsupported_media_type: 415,
  throttled: 429,
  service_unavailable: 503,
  /** A promo code refused (PROMO_REFUSALS of the contracts, attr `promo_code`): the detail says why. */
  promo_unknown: 400,
  promo_expired: 400,
  promo_not_yet_valid: 400,
  promo_not_for_offer: 400,
  promo_departure: 400,
  promo_minimum: 400,
  promo_used_up: 409,
  promo_used_by_customer: 409,
  promo_not_for_store: 400,
  /** A gift voucher refused (VOUCHER_REFUSALS of the contracts, attr `voucher_code`). */
  voucher_unknown: 400,
  voucher_expired: 400,
  voucher_cancelled: 400,
  voucher_used_up: 409,
  voucher_currency: 400,
} as const;
export type ErrorCode = keyof typeof STATUS_BY_CODE;

export class AppError extends Error {
  readonly status: number;
  readonly items: TErrorItem[];
  /** Extra response headers, e.g. Retry-After on a 429. */
  headers: Record<string, string> = {};

  /** `status`: the code's own unless given (a sign-in past its longest wait is 429 `challenge_required`). */
  constructor(code: ErrorCode, detail: string, attr: string | null = null, extra: TErrorItem[] = [], status: number = STATUS_BY_CODE[code]) {
    super(detail);
    this.name = 'AppError';
    this.status = status;
    this.items = [{ code, detail, attr }, ...extra];
  }
}

export const notFound = (detail = 'Not found.') => new AppError('not_found', detail);

/**
 * Errors raised by the database functions of the capacity engine (migration 0006) carry their
 * own SQLSTATE (TD400, TD404, TD409), message and field (the hint); a lock wait past the
 * transaction's lock_timeout is 55P03.
 */
const CODE_BY_SQLSTATE: Record<string, ErrorCode> = { TD400: 'invalid', TD404: 'not_found', TD409: 'sold_out' };
export function fromDatabase(error: unknown): AppError | undefined {
  // The database restarting (or PgBouncer, or a failover): a moment's unavailability, not a fault of
  // this request or a bug, so a 503 the client (and HAProxy, a browser) may send again.
  if (isConnectionLost(error)) {
    const unavailable = new AppError('service_unavailable', 'The database could not be reached for a moment. Please try again.');
    unavailable.headers['retry-after'] = '1';
    return unavailable;
  }
  const pg = pgError(error);
  if (!pg) return undefined;
  const code = CODE_BY_SQLSTATE[pg.code];
  if (code) return new AppError(code, pg.message, pg.hint ?? null);
  // A refusal with several items (tourdesk_refuse(), 04-carts.sql: a checkout's sale at its commit, a promo code's use).
  if (pg.code === 'TDERR') {
    const items = refusalItems(pg.detail);
    if (items.length) return new AppError(items[0]!.code, items[0]!.detail, items[0]!.attr, items.slice(1));
    return new AppError('conflict', pg.message);
  }
  // The slot's own check (booked + held ≤ capacity) refused a write that raced past the lock.
  if (pg.code === '23514' && (pg.constraint === 'slot_seats_check' || pg.message.includes('slot_seats_check'))) {
    return new AppError('sold_out', 'Sold out: these seats are no longer free in this time slot.', 'quantities');
  }
  const byClass = constraintError(pg);
  if (byClass) return byClass;
  if (pg.code === '55P03') return new AppError('lock_timeout', 'This is very busy right now (a lock wait ran out). Please try again.');
  // Two changes that met in opposite order: PostgreSQL cancelled this one; nothing was saved.
  if (pg.code === '40P01' || pg.code === '40001') return new AppError('lock_timeout', 'Another change to the same records ran at the same moment; nothing was saved. Please try again.');
  return undefined;
}

/** The items of a TDERR refusal (its detail, JSON), those with a known code. */
function refusalItems(detail: string | undefined): { code: ErrorCode; detail: string; attr: string | null }[] {
  try {
    const parsed: unknown = JSON.parse(detail ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((i): i is { code: ErrorCode; detail: string; attr?: string | null } => typeof i?.code === 'string' && i.code in STATUS_BY_CODE && typeof i.detail === 'string')
      .map((i) => ({ code: i.code, detail: i.detail, attr: i.attr ?? null }));
  } catch {
    return [];
  }
}

/**
 * Every constraint and data error PostgreSQL can answer a request with, as a 4xx: what a check in
 * a service missed (or lost a race to) is still the caller's error, never a 500.
 */
function constraintError(pg: { code: string; message: string; constraint?: string; column?: string }): AppError | undefined {
  const attr = pg.column ?? null;
  switch (pg.code) {
    case '23505':
      return new AppError('conflict', 'This already exists: another record has the same value.', attr);
    case '23503':
      return new AppError('conflict', pg.message.includes('is still referenced')
        ? 'Other records still refer to this one: remove or change them first.'
        : 'This refers to a record that does not exist (or no longer does).', attr);
    case '23502':
      return new AppError('invalid', 'A required value is missing.', attr);
    case '23514':
      return new AppError('invalid', 'A value breaks a rule of the data it goes into (a check refused it); nothing was saved.', attr);
    case '23P01':
      return new AppError('conflict', 'This overlaps another record; nothing was saved.', attr);
    case '22001':
      return new AppError('invalid', 'A value is too long.', attr);
    case '22003':
      return new AppError('invalid', 'A number is out of range.', attr);
    case '22007':
    case '22008':
      return new AppError('invalid', 'A date or time is out of range (years 1 to 9999).', attr);
    case '22021':
    case '22P05':
      return new AppError('invalid', 'Text cannot contain the NUL character or unpaired UTF-16 surrogates.', attr);
    case '22P02':
      return new AppError('invalid', 'A value is not in the expected format.', attr);
    default:
      return undefined;
  }
}

const SERVER_ERROR_DETAIL = 'A server error occurred. It has been logged; please try again.';

export function envelope(type: TErrorType, errors: TErrorItem[]): TErrorEnvelope {
  return { type, errors };
}

function typeFor(status: number, items: TErrorItem[]): TErrorType {
  if (status >= 500) return 'server_error';
  if (status === 400 && items.some((i) => i.attr !== null)) return 'validation_error';
  return 'client_error';
}

/** Zod issues from request validation, one item per bad field; `attr` is the dotted path. */
function validationItems(error: FastifyError): TErrorItem[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => {
    const attr = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.') || null;
    const message = issue.message ?? 'Invalid value.';
    const missing = /received undefined/.test(message);
    return {
      code: missing ? 'required' : ['invalid_type', 'custom'].includes(issue.keyword) ? 'invalid' : issue.keyword,
      detail: missing ? 'This field is required.' : message,
      attr,
    };
  });
}

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'parse_error',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'parse_error',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid',
  FST_ERR_RATE_LIMIT: 'throttled',
};

const CODE_BY_STATUS: Record<number, string> = Object.fromEntries(
  Object.entries(STATUS_BY_CODE)
    .reverse()
    .map(([code, status]) => [status, code]),
);

export function sendError(reply: FastifyReply, status: number, items: TErrorItem[]) {
  for (const item of items) httpErrors.inc({ status: String(status), code: item.code });
  return reply.status(status).type('application/json; charset=utf-8').send(envelope(typeFor(status, items), items));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = (fromDatabase(thrown) ?? thrown) as FastifyError;
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, error.status, error.items);
    }
    const items = validationItems(error);
    if (items.length > 0) {
      return sendError(reply, 400, items);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return sendError(reply, 500, [{ code: 'error', detail: SERVER_ERROR_DETAIL, attr: null }]);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = FASTIFY_CODES[error.code] ?? CODE_BY_STATUS[status] ?? 'invalid';
      if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '60');
      return sendError(reply, status, [{ code, detail: error.message, attr: null }]);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, [{ code: 'error', detail: SERVER_ERROR_DETAIL, attr: null }]);
  });
}
