/**
 * Sends the customer to Stripe's payment page: the page itself, or, in a frame on another site, the
 * whole window (Stripe's page cannot be framed; the browser allows it right after the click).
 * False when the browser refused to leave the frame: the page then shows the link instead.
 */
export function leaveForPayment(url: string, embed: boolean): boolean {
  if (!embed) {
    location.assign(url);
    return true;
  }
  try {
    window.top!.location.href = url;
    return true;
  } catch {
    return false;
  }
}
