/**
 * Every text the web store shows, in English. Another language is another object of this shape
 * (chosen at start); nothing else in the store holds words customers read.
 */
export const LOCALE = 'en-GB';
/**
 * Calendar names, written out rather than asked of Intl: the server (Node's ICU) and each browser
 * (its own) must draw a page's dates letter for letter alike, or hydration throws the drawing away.
 */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

export const t = {
  // Chrome
  skipToContent: 'Skip to content',
  cart: (n: number) => (n ? `Cart (${n})` : 'Cart'),
  cartLabel: (n: number) => (n ? `Cart, ${n} ${plural(n, 'booking', 'bookings')} held` : 'Cart, empty'),
  contact: 'Contact',
  poweredBy: (org: string) => `Sold by ${org}`,
  loading: 'Loading…',
  close: 'Close',
  dismiss: 'Dismiss',
  retry: 'Try again',
  notFoundTitle: 'Page not found',
  notFoundText: 'This page does not exist. Have a look at what we offer instead.',
  storeClosed: 'This store does not exist or is closed.',
  offerNotSold: 'This offer is not sold in this store.',
  needsJavaScript: 'This page needs JavaScript.',
  seeOffers: 'See the offers',
  pageNotLoaded: 'This page could not be loaded. Check your connection and reload it.',
  reload: 'Reload',
  genericError: 'Something went wrong. Please try again.',
  networkError: 'We could not reach the server. Check your connection and try again.',

  // Store page
  offersHeading: 'Experiences',
  storeDescription: (titles: string[], org: string) => (titles.length ? `Book ${titles.join(', ')} with ${org}.` : `Book with ${org}.`),
  noOffers: 'Nothing is on sale right now. Please come back later.',
  from: (price: string) => `from ${price}`,
  operatedBy: (operator: string) => `Operated by ${operator}`,
  fromLabel: 'From',
  duration: 'Duration',
  moreOffers: 'Show more',
  backToStore: 'All experiences',

  // Durations
  minutes: (n: number) => `${n} min`,
  hours: (h: number, m: number) => (m ? `${h} h ${m} min` : `${h} h`),
  days: (d: number) => `${d} ${plural(d, 'day', 'days')}`,

  // Offer page
  photo: (n: number, of: number) => `Photo ${n} of ${of}`,
  showPhoto: (n: number) => `Show photo ${n}`,
  about: 'About this experience',
  highlights: 'Highlights',
  inclusions: 'What is included',
  exclusions: 'What is not included',
  whatToBring: 'What to bring',
  importantInformation: 'Good to know',
  meetingPoint: 'Meeting point',
  meetingPoints: 'Meeting points',
  openMap: 'Open in a map',
  cancellationPolicy: 'Cancellation policy',
  noCancellationPolicy: 'This booking cannot be cancelled online. Contact us if your plans change.',
  /** A rule of a cancellation policy: this refund when cancelling at least `hours` before the start. */
  refundAtLeast: (percent: number, hours: number) => `${refundText(percent)} if you cancel at least ${hoursText(hours)} before the start.`,
  /** This refund when cancelling later than `hours` before the start (but before it). */
  refundLater: (percent: number, hours: number) => `${refundText(percent)} if you cancel less than ${hoursText(hours)} before the start.`,
  refundAnytime: (percent: number) => `${refundText(percent)} if you cancel before the start.`,

  // Booking panel
  bookHeading: 'Book',
  chooseDate: 'Choose a date',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  dayAvailable: (label: string, seats: number) => `${label}, ${seats} ${plural(seats, 'seat', 'seats')} left`,
  daySoldOut: (label: string) => `${label}, sold out`,
  dayUnavailable: (label: string) => `${label}, not available`,
  legendAvailable: 'Seats available',
  legendSoldOut: 'Sold out',
  noDatesThisMonth: 'No dates with free seats this month.',
  chooseTime: (date: string) => `Times on ${date}`,
  noTimes: 'No times on this day.',
  seatsLeft: (n: number) => (n === 0 ? 'Sold out' : `${n} ${plural(n, 'seat', 'seats')} left`),
  participants: 'Participants',
  ages: (min: number | null, max: number | null) =>
    min !== null && max !== null ? `Age ${min}–${max}` : min !== null ? `Age ${min}+` : max !== null ? `Up to age ${max}` : '',
  noSeat: 'Does not take a seat',
  free: 'Free',
  fewer: (label: string) => `Fewer: ${label}`,
  more: (label: string) => `More: ${label}`,
  quantityOf: (label: string) => `${label}, quantity`,
  minParticipants: (n: number) => `Book at least ${n} ${plural(n, 'participant', 'participants')}.`,
  maxParticipants: (n: number) => `At most ${n} ${plural(n, 'participant', 'participants')} per booking.`,
  notEnoughSeats: (n: number) => `Only ${n} ${plural(n, 'seat', 'seats')} left at this time.`,
  extras: 'Extras',
  total: 'Total',
  hold: 'Hold seats',
  holding: 'Holding…',
  holdHint: 'Your seats are kept for you while you enter your details.',
  chooseParticipants: 'Choose how many people are coming.',

  // Checkout
  checkoutTitle: 'Checkout',
  cartEmpty: 'Your cart is empty.',
  browseOffers: 'Browse experiences',
  addAnother: 'Add another experience',
  heldFor: 'Seats held for',
  heldForLive: (minutes: number) => (minutes <= 1 ? 'Less than a minute left to book these seats.' : `Seats held for ${minutes} more minutes.`),
  expired: 'Your hold has run out, so these seats are no longer kept for you. Booking may still get them if they are free.',
  expiredLive: 'Your hold has run out.',
  chooseAgain: 'Choose again',
  remove: 'Remove',
  removeLine: (title: string) => `Remove ${title}`,
  removed: 'Removed from your cart.',
  yourDetails: 'Your details',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  emailHint: 'Your tickets are sent here.',
  phone: 'Phone',
  country: 'Country',
  optional: '(optional)',
  required: '(required)',
  noCountry: 'Not given',
  questions: 'A few questions',
  yes: 'Yes',
  no: 'No',
  chooseOption: 'Choose…',
  acceptTermsBefore: 'I accept the ',
  termsLink: 'terms and conditions',
  acceptTerms: 'I accept the terms and conditions',
  payment: 'Payment',
  book: 'Book',
  booking: 'Booking…',
  fixErrors: 'Please check the marked fields.',
  fieldRequired: 'Please fill this in.',
  invalidEmail: 'Enter a valid e-mail address.',
  termsRequired: 'Accept the terms to book.',
  payOnlineHint: 'You pay on Stripe’s secure payment page; your seats stay held while you pay.',
  bookedWith: (operator: string, online: boolean) => `You book this with ${operator}, who runs it${online ? ' and takes your payment' : '; you pay on site'}.`,
  continueToPayment: 'Continue to payment',
  openingPayment: 'Opening the payment page…',
  openPaymentPage: 'Open the secure payment page',
  paymentNotCompleted: 'Your payment was not completed, so nothing is booked yet. Your seats are still held: pay again, or choose another way to pay.',

  // Back from the payment page
  paymentTitle: 'Your payment',
  checkingPayment: 'Checking your payment…',
  stillChecking: 'We are still waiting for word of your payment. If you paid, your booking is confirmed by e-mail as soon as it arrives.',
  checkAgain: 'Check again',
  paymentUnknown: 'We cannot find this payment in this browser. If you paid, the confirmation with your tickets comes by e-mail.',
  paymentRefundedTitle: 'Your payment was refunded',
  paymentRefunded: 'Your payment came after your hold had run out, and the seats were booked by someone else meanwhile. We have refunded the full amount to your card; it shows on your statement within a few days.',
  paymentExpiredTitle: 'The payment page has expired',
  paymentExpired: 'The payment page ran out before you paid, so nothing was charged and your seats were released. Please choose your time again.',
  paymentFailedTitle: 'Your payment did not go through',
  paymentFailed: 'Nothing was charged and nothing is booked. Please try again or choose another way to pay.',
  backToCheckout: 'Back to checkout',
  chooseAnotherTime: 'Choose another time',

  // Confirmation
  thankYou: (name: string) => `Thank you, ${name}!`,
  thankYouPlain: 'Thank you!',
  confirmed: (reference: string, email: string) => `Your booking ${reference} is confirmed. We have sent the details and your tickets to ${email}.`,
  confirmationUnknown: 'Your booking is made. The confirmation e-mail has your tickets and a link to your booking.',
  ticketCode: 'Ticket code',
  manageBooking: 'See or cancel your booking',
  payOnSite: 'You pay on site.',
  paidAmount: (amount: string) => `Paid: ${amount}.`,

  // Booking page
  bookingTitle: (reference: string) => `Your booking ${reference}`,
  bookingHeading: 'Your booking',
  status: 'Status',
  paymentStatus: 'Payment',
  paid: 'Paid',
  bookedBy: 'Booked by',
  downloadTickets: 'Download tickets (PDF)',
  downloading: 'Downloading…',
  incompleteLink: 'This link is incomplete. Open the link from your confirmation e-mail.',
  cancelHeading: 'Cancel',
  cancelBooking: 'Cancel booking',
  cancelConfirm: (reference: string) => `Cancel booking ${reference}?`,
  refundWillBe: (amount: string) => `You will be refunded ${amount}.`,
  feeWillBeKept: (amount: string) => `${amount} is kept as the cancellation fee.`,
  settlementHeading: 'What you paid',
  keptAsFee: 'Kept as the cancellation fee',
  refundedAmount: 'Refunded',
  toBeRefunded: 'To be refunded',
  noRefund: 'No refund will be made.',
  nothingPaid: 'Nothing has been paid yet, so there is nothing to refund.',
  confirmCancel: 'Yes, cancel it',
  keepBooking: 'Keep my booking',
  cancelled: 'Your booking is cancelled.',
  cancelling: 'Cancelling…',
  orderStatus: (status: string) => ({ Created: 'Being confirmed', Confirmed: 'Confirmed', Canceled: 'Cancelled' } as Record<string, string>)[status] ?? status,
  paymentStatusText: (status: string) =>
    ({ 'Not paid': 'To pay on site', 'Partially paid': 'Partly paid', 'Fully paid': 'Paid', 'Refund due': 'Refund on its way', Refunded: 'Refunded' } as Record<string, string>)[status] ?? status,
  meeting: 'Meet at',
  when: 'When',
  items: 'What you booked',
  quantityTimes: (n: number, label: string) => `${n} × ${label}`,
} as const;

function refundText(percent: number) {
  return percent >= 100 ? 'Full refund' : percent <= 0 ? 'No refund' : `${percent} % refund`;
}

function hoursText(hours: number) {
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} ${plural(hours, 'hour', 'hours')}`;
}

/** The ways a store lets customers pay (mirrors STORE_PAYMENT_LABEL of the contracts, without importing zod). */
export const PAYMENT_LABEL: Record<string, string> = { pay_on_site: 'Reserve now, pay on site', online: 'Pay online by card' };
