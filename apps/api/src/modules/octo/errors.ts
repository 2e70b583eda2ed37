/**
 * OCTO's errors (octo.travel core): HTTP 400 with `{ error, errorMessage }` and the offending id
 * field. The public booking API presents the same errors in the product's envelope.
 */
export type OctoErrorCode =
  | 'INVALID_PRODUCT_ID'
  | 'INVALID_OPTION_ID'
  | 'INVALID_AVAILABILITY_ID'
  | 'INVALID_UNIT_ID'
  | 'INVALID_BOOKING_UUID'
  | 'BAD_REQUEST'
  | 'UNPROCESSABLE_ENTITY';

const FIELD: Partial<Record<OctoErrorCode, string>> = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_BOOKING_UUID: 'uuid',
};

export class OctoError extends Error {
  constructor(
    readonly code: OctoErrorCode,
    message: string,
    /** The offending id, answered under its field (productId, optionId, …). */
    readonly id?: string,
    /** For the product's envelope: the field it is about. */
    readonly attr?: string,
  ) {
    super(message);
  }

  private app?: 'invalid' | 'not_found' | 'sold_out';

  /** Names the product's error code for this refusal (the public booking API's envelope). */
  as(code: 'invalid' | 'not_found' | 'sold_out') {
    this.app = code;
    return this;
  }

  get field() {
    return FIELD[this.code];
  }

  body(): Record<string, string> {
    const field = this.field;
    return { error: this.code, errorMessage: this.message, ...(field ? { [field]: this.id ?? '' } : {}) };
  }

  /** The product's error code for the same refusal (public booking API). */
  get appCode(): 'invalid' | 'not_found' | 'sold_out' {
    if (this.app) return this.app;
    if (this.code === 'BAD_REQUEST' || this.code === 'UNPROCESSABLE_ENTITY') return 'invalid';
    return 'not_found';
  }
}
