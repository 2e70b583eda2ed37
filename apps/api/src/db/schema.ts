/**
 * The Drizzle schema, the only description of the tables (drizzle-kit reads it, and drizzle() takes
 * it whole): the files below, re-exported. Each file imports the tables it references from the file
 * that defines them, never from here, so imports between them go one way.
 */
export * from './accounts-schema';
export * from './catalog-schema';
export * from './availability-schema';
export * from './orders-schema';
export * from './stores-schema';
export * from './payments-schema';
export * from './partners-schema';
export * from './settlements-schema';
export * from './qr-codes-schema';
export * from './promo-codes-schema';
export * from './check-in-schema';
export * from './calendar-feeds-schema';
export * from './webhooks-schema';
export * from './waitlist-schema';
export * from './gift-vouchers-schema';
export * from './guides-schema';
