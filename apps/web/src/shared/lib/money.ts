/**
 * Money travels as integer minor units with an ISO currency code. The conversions live in the
 * shared contracts (the API's PDFs and CSV use the same ones); this re-exports them for the app.
 */
export { formatMoney, fractionDigits, toMajorText, toMajorUnits, toMinorUnits } from '@tourdesk/contracts';

/** A VAT rate in basis points as people read it: 810 → "8.1 %" (the contracts' formatBp). */
export { formatBp as vatRate } from '@tourdesk/contracts';
