import type { Config } from '../config';
import { AppError } from './errors';

/** reCAPTCHA is on when RECAPTCHA_SECRET is set; the verify endpoint is configurable (tests run their own). */
export const recaptchaEnabled = (config: Config) => Boolean(config.RECAPTCHA_SECRET);

export async function verifyRecaptcha(config: Config, token: string | undefined, ip?: string): Promise<boolean> {
  if (!recaptchaEnabled(config)) return true;
  if (!token) return false;
  const body = new URLSearchParams({ secret: config.RECAPTCHA_SECRET!, response: token, ...(ip ? { remoteip: ip } : {}) });
  try {
    const res = await fetch(config.RECAPTCHA_VERIFY_URL, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
    const data = (await res.json()) as { success?: boolean };
    return data.success === true;
  } catch {
    throw new AppError('service_unavailable', 'The robot check could not be verified right now. Please try again.');
  }
}

export async function requireRecaptcha(config: Config, token: string | undefined, ip?: string) {
  if (!(await verifyRecaptcha(config, token, ip))) {
    throw new AppError('invalid', 'Please confirm that you are not a robot.', 'recaptcha_token');
  }
}
