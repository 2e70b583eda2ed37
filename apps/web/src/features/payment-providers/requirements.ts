import type { PaymentProvidersT } from './texts';

/** Catalog codes (payment-providers: req.*): whose detail, a whole requirement, a detail. */
type Subject = 'individual' | 'representative' | 'company' | 'person';
type WholeCode = 'external_account' | 'business_type' | 'business_profile.url' | 'business_profile.mcc' | 'business_profile.product_description' | 'business_profile.name' | 'business_profile.support_phone' | 'business_profile.support_email' | 'business_profile.support_url' | 'business_profile.support_address' | 'statement_descriptor' | 'company.owners_provided' | 'company.directors_provided' | 'company.executives_provided';
type Field = 'name' | 'dob' | 'address' | 'email' | 'phone' | 'id_number' | 'ssn_last_4' | 'document' | 'proof_of_address' | 'title' | 'role' | 'tax_id' | 'vat_id' | 'registration_number' | 'structure' | 'political_exposure';

/**
 * What Stripe still requires of an account comes as keys (its requirements.currently_due, such as
 * "individual.dob.day" or "external_account"). The common ones read as words here; several keys
 * that ask for one thing (the day, month and year of a birth date) become one item. A key this
 * does not know is shown as it is.
 */
export interface Requirement {
  /** Words when the key is known, else the key. */
  text: string;
  known: boolean;
  /** The keys of Stripe this item stands for. */
  keys: string[];
}

const WHOLE_KEYS: Record<string, WholeCode> = {
  external_account: 'external_account',
  business_type: 'business_type',
  'business_profile.url': 'business_profile.url',
  'business_profile.mcc': 'business_profile.mcc',
  'business_profile.product_description': 'business_profile.product_description',
  'business_profile.name': 'business_profile.name',
  'business_profile.support_phone': 'business_profile.support_phone',
  'business_profile.support_email': 'business_profile.support_email',
  'business_profile.support_url': 'business_profile.support_url',
  'business_profile.support_address': 'business_profile.support_address',
  'settings.payments.statement_descriptor': 'statement_descriptor',
  'settings.card_payments.statement_descriptor_prefix': 'statement_descriptor',
  'company.owners_provided': 'company.owners_provided',
  'company.directors_provided': 'company.directors_provided',
  'company.executives_provided': 'company.executives_provided',
};

/** Whose detail it is: the prefix of the key. */
const SUBJECTS: [RegExp, Subject][] = [
  [/^individual\./, 'individual'],
  [/^representative\./, 'representative'],
  [/^company\./, 'company'],
  [/^person_[A-Za-z0-9]+\./, 'person'],
];

/** Which detail, after the prefix. */
const FIELDS: [RegExp, Field][] = [
  [/^(first_name|last_name|full_name_aliases)$/, 'name'],
  [/^(first_name|last_name)_(kana|kanji)$/, 'name'],
  [/^dob\./, 'dob'],
  [/^address\./, 'address'],
  [/^email$/, 'email'],
  [/^phone$/, 'phone'],
  [/^id_number$/, 'id_number'],
  [/^ssn_last_4$/, 'ssn_last_4'],
  [/^verification\.document/, 'document'],
  [/^verification\.additional_document/, 'proof_of_address'],
  [/^relationship\.title$/, 'title'],
  [/^relationship\./, 'role'],
  [/^name$/, 'name'],
  [/^tax_id$/, 'tax_id'],
  [/^vat_id$/, 'vat_id'],
  [/^registration_number$/, 'registration_number'],
  [/^structure$/, 'structure'],
  [/^political_exposure$/, 'political_exposure'],
];

export function describeRequirement(key: string, t: PaymentProvidersT): string | null {
  const whole = WHOLE_KEYS[key];
  if (whole) return t(`req.${whole}`);
  if (key.startsWith('tos_acceptance.')) return t('req.tos_acceptance');
  for (const [prefix, subject] of SUBJECTS) {
    const rest = key.replace(prefix, '');
    if (rest === key) continue;
    const field = FIELDS.find(([re]) => re.test(rest))?.[1];
    return field ? t(`req.of.${subject}`, { field: t(`req.field.${field}`) }) : null;
  }
  return null;
}

/** The requirements as a list to read, in Stripe's order, one item per thing asked for. */
export function describeRequirements(keys: readonly string[], t: PaymentProvidersT): Requirement[] {
  const out: Requirement[] = [];
  for (const key of keys) {
    const words = describeRequirement(key, t);
    const same = words && out.find((r) => r.known && r.text === words);
    if (same) same.keys.push(key);
    else out.push({ text: words ?? key, known: Boolean(words), keys: [key] });
  }
  return out;
}
