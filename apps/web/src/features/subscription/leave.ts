/** Leaves the app for Stripe's pages (Checkout, the customer portal); its own module so tests can stand in for it. */
export function leaveFor(url: string) {
  window.location.assign(url);
}
