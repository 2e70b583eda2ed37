/**
 * A visitor without a session is sent through the bare host once per tab, to find out whether
 * this browser belongs to another organisation. After that, or after a session on this host
 * ended (sign-out, expiry), the sign-in page is shown directly.
 */
const SSO_CHECKED = 'tourdesk-sso-checked';

export const ssoChecked = () => sessionStorage.getItem(SSO_CHECKED) !== null;
export const markSsoChecked = () => sessionStorage.setItem(SSO_CHECKED, '1');
