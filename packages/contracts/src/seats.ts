/**
 * Seats a customer can buy in a departure: what tourdesk_availability() says remains while the
 * departure is open for sale (its `bookable`: the one SQL definition of open), none otherwise, and
 * never fewer than none (capacity lowered under what is booked). Every channel shows this figure:
 * the back office's calendars, the web store, OCTO and the public booking API.
 */
export const seatsForSale = (slot: { bookable: boolean; remaining: number }) => (slot.bookable ? Math.max(0, slot.remaining) : 0);
