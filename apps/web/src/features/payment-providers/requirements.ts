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

const WHOLE_KEYS: Record<string, string> = {
  external_account: 'A bank account for payouts',
  business_type: 'The type of business',
  'business_profile.url': 'The business’s website',
  'business_profile.mcc': 'The business’s category',
  'business_profile.product_description': 'A description of what the business sells',
  'business_profile.name': 'The business’s name',
  'business_profile.support_phone': 'A support phone number for customers',
  'business_profile.support_email': 'A support e-mail address for customers',
  'business_profile.support_url': 'A support website for customers',
  'business_profile.support_address': 'A support address for customers',
  'settings.payments.statement_descriptor': 'The name shown on customers’ card statements',
  'settings.card_payments.statement_descriptor_prefix': 'The name shown on customers’ card statements',
  'company.owners_provided': 'The company’s owners',
  'company.directors_provided': 'The company’s directors',
  'company.executives_provided': 'The company’s executives',
};

/** Whose detail it is: the prefix of the key. */
const SUBJECTS: [RegExp, string][] = [
  [/^individual\./, 'Your'],
  [/^representative\./, 'The representative’s'],
  [/^company\./, 'The company’s'],
  [/^person_[A-Za-z0-9]+\./, 'A listed person’s'],
];

/** Which detail, after the prefix. */
const FIELDS: [RegExp, string][] = [
  [/^(first_name|last_name|full_name_aliases)$/, 'name'],
  [/^(first_name|last_name)_(kana|kanji)$/, 'name'],
  [/^dob\./, 'date of birth'],
  [/^address\./, 'address'],
  [/^email$/, 'e-mail address'],
  [/^phone$/, 'phone number'],
  [/^id_number$/, 'ID number'],
  [/^ssn_last_4$/, 'social security number (last 4 digits)'],
  [/^verification\.document/, 'identity document'],
  [/^verification\.additional_document/, 'proof of address'],
  [/^relationship\.title$/, 'job title'],
  [/^relationship\./, 'role in the company'],
  [/^name$/, 'name'],
  [/^tax_id$/, 'tax ID'],
  [/^vat_id$/, 'VAT number'],
  [/^registration_number$/, 'registration number'],
  [/^structure$/, 'legal structure'],
  [/^political_exposure$/, 'political exposure'],
];

export function describeRequirement(key: string): string | null {
  if (WHOLE_KEYS[key]) return WHOLE_KEYS[key];
  if (key.startsWith('tos_acceptance.')) return 'Acceptance of Stripe’s terms of service';
  for (const [prefix, subject] of SUBJECTS) {
    const rest = key.replace(prefix, '');
    if (rest === key) continue;
    const field = FIELDS.find(([re]) => re.test(rest))?.[1];
    return field ? `${subject} ${field}` : null;
  }
  return null;
}

/** The requirements as a list to read, in Stripe's order, one item per thing asked for. */
export function describeRequirements(keys: readonly string[]): Requirement[] {
  const out: Requirement[] = [];
  for (const key of keys) {
    const words = describeRequirement(key);
    const same = words && out.find((r) => r.known && r.text === words);
    if (same) same.keys.push(key);
    else out.push({ text: words ?? key, known: Boolean(words), keys: [key] });
  }
  return out;
}
