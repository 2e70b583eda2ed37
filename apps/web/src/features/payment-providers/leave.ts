/** Leaves the app for another site (Stripe's onboarding); its own module so tests can stand in for it. */
export function leaveFor(url: string) {
  window.location.assign(url);
}
