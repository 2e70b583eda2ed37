/**
 * What a customer receives about an order besides the web store's pages, in the order's language:
 * its e-mails (confirmation, tickets sent again, reminder, payment refunded), the ticket PDF, the
 * order confirmation PDF, invoices and credit notes, and the .ics calendar file. Dates, times,
 * money and rates come in as arguments already formatted for the language (apps/api/src/lib/customer-text.ts).
 */
export const en = {
  // E-mails
  'mail.greeting': 'Hello {name},',
  'mail.confirmation.subject': 'Your booking {reference} with {organisation}',
  'mail.confirmation.intro': 'thank you for booking with {organisation}. Your order {reference}:',
  'mail.confirmation.introAgain': 'here are your tickets and the confirmation of your order {reference} with {organisation} again:',
  'mail.total': 'Total {total}.',
  'mail.totalDue': 'Total {total}, to pay on site: {due}.',
  'mail.attached': '{count, plural, one {Your ticket (with its QR code)} other {Your tickets (one QR code per booking)}} and a calendar entry are attached.',
  'mail.attachedAgain': '{count, plural, one {Your ticket (with its QR code)} other {Your tickets (one QR code per booking)}}, the order confirmation and a calendar entry are attached.',
  'mail.manageLink': 'See your booking, download your tickets or cancel it: {link}',
  'mail.reminder.subject': 'Tomorrow: {title} ({reference})',
  'mail.reminder.yourBooking': 'your booking',
  'mail.reminder.intro': 'A reminder of your booking with {organisation}:',
  'mail.reminder.due': 'To pay on site: {due}.',
  'mail.reminder.outro': '{count, plural, one {Your ticket is attached} other {Your tickets are attached}}. See you there!',
  'mail.line.meetingPoint': 'Meeting point: {place}',
  'mail.line.ticket': 'Ticket: {code}',
  'mail.answers.subject': 'Questions about your booking {reference} with {organisation}',
  'mail.answers.intro': 'your booking {reference} with {organisation} is confirmed. Before you come, {organisation} needs a few answers:',
  'mail.answers.link': 'Answer them on your booking page: {link}',
  'mail.answers.reply': 'Please send them to {organisation} before you come.',
  'mail.cancellation.subject': 'Cancelled: your booking {reference} with {organisation}',
  'mail.cancellation.intro': 'your order {reference} with {organisation} is cancelled, as you asked:',
  'mail.cancellation.refund': '{amount} is due back to you and will be refunded.',
  'mail.cancellation.fee': 'Under the cancellation policy, {amount} is kept as the cancellation fee.',
  'mail.cancellation.outro': 'We hope to see you another time.',
  'mail.refund.subject': 'Refund for your booking {reference} with {organisation}',
  'mail.refund.body': '{organisation} has refunded {amount} of your order {reference}.',
  'mail.refund.card': 'It goes back to the card you paid with and shows on your statement within a few days.',
  'mail.refunded.subject': 'Your payment was refunded: the booking could not be made',
  'mail.refunded.body':
    'your payment of {amount} arrived after the hold on your seats had run out, and the booking could not be made as you chose it: the seats were booked by someone else meanwhile, or their price changed. We have refunded the full amount to your card; it shows on your statement within a few days.\n\nWe are sorry. Choose a time in the store and book again.',
  // The ticket PDF
  'ticket.documentTitle': 'Tickets {reference}',
  'ticket.meetingPoint': 'Meeting point: {place}',
  'ticket.order': 'Order {reference}',
  'ticket.due': 'To pay on site: {amount}',
  'ticket.none': 'This order has no tickets: every booking is cancelled.',
  // The order confirmation PDF
  'confirmation.title': 'Order confirmation',
  'confirmation.documentTitle': 'Order confirmation {reference}',
  'confirmation.cancelled': '{title} (cancelled)',
  'confirmation.ticket': 'Ticket {code}',
  'confirmation.total': 'Total',
  'confirmation.paid': 'Paid',
  'confirmation.toPayOnSite': 'To pay on site',
  'confirmation.toRefund': 'To refund',
  'confirmation.leftToPay': 'Left to pay',
  // Invoices and credit notes
  'invoice.title': '{kind, select, credit_note {Credit note} other {Invoice}} {number}',
  'invoice.vatNumber': 'VAT {number}',
  'invoice.date': 'Date {date}',
  'invoice.order': 'Order {reference}',
  'invoice.cancels': 'Cancels invoice {number}',
  'invoice.cancelsOf': 'of {date}',
  'invoice.billTo': 'Bill to',
  'invoice.description': 'Description',
  'invoice.quantity': 'Qty',
  'invoice.unitPrice': 'Unit price',
  'invoice.vat': 'VAT',
  'invoice.amount': 'Amount',
  'invoice.net': 'Net',
  'invoice.vatOn': 'VAT {rate} on {net}',
  'invoice.total': 'Total',
  'invoice.paid': 'Paid',
  'invoice.balanceDue': 'Balance due',
  'invoice.cancellationFee': 'Cancellation fee',
  // The calendar file
  'ics.description': '{organisation} — order {reference}, ticket {code}',
} as const satisfies Record<string, string>;

export type CustomerKey = keyof typeof en;
