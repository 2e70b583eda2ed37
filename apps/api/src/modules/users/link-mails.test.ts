import { describe, expect, it } from 'vitest';
import { stillDue, type AccountLink } from './link-mails';

/**
 * A queued account e-mail mints its link when it is sent, which may be hours later (retries, an
 * Owner's retry of a failed job): it goes only while the reason it was asked for still holds.
 */
const at = new Date('2026-11-01T10:00:00Z');
const member = { email: 'bob@example.com', pending_email: null, is_active: true, invited_at: null, activated_at: at };
const invited = { ...member, is_active: false, invited_at: at, activated_at: null };
const signedUp = { ...member, is_active: false, invited_at: null, activated_at: null };
const link = (kind: Exclude<AccountLink['kind'], 'email_confirm'>): AccountLink =>
  kind === 'invitation' ? { kind, user: 'u', language: 'en', subdomain: 'demo', organisation: 'Demo', inviter: 'Ann' } : { kind, user: 'u', language: 'en' };

describe('stillDue: a queued link e-mail is sent only while its reason holds', () => {
  it('sends an invitation to a member still invited, never once accepted or deactivated', () => {
    expect(stillDue(invited, 'bob@example.com', link('invitation'))).toBe(true);
    expect(stillDue(member, 'bob@example.com', link('invitation'))).toBe(false);
    // Accepted (invited_at cleared), then deactivated by an admin.
    expect(stillDue({ ...member, is_active: false }, 'bob@example.com', link('invitation'))).toBe(false);
  });

  it('sends a password or e-mail reset to an active account at its address only', () => {
    for (const kind of ['password_reset', 'email_reset'] as const) {
      expect(stillDue(member, 'BOB@example.com', link(kind))).toBe(true);
      expect(stillDue({ ...member, is_active: false }, 'bob@example.com', link(kind))).toBe(false);
      // The account moved to another address since: the old mailbox gets no fresh link.
      expect(stillDue({ ...member, email: 'bob@new.example' }, 'bob@example.com', link(kind))).toBe(false);
    }
  });

  it('sends an activation only to an account never activated nor invited', () => {
    expect(stillDue(signedUp, 'bob@example.com', link('activation'))).toBe(true);
    expect(stillDue(member, 'bob@example.com', link('activation'))).toBe(false);
    expect(stillDue(invited, 'bob@example.com', link('activation'))).toBe(false);
  });

  it('sends a confirmation to the new address while it is still the one asked for', () => {
    const confirm: AccountLink = { kind: 'email_confirm', user: 'u', language: 'en', email: 'bob@new.example' };
    expect(stillDue({ ...member, pending_email: 'bob@new.example' }, 'bob@new.example', confirm)).toBe(true);
    expect(stillDue({ ...member, pending_email: 'bob@other.example' }, 'bob@new.example', confirm)).toBe(false);
    expect(stillDue(member, 'bob@new.example', confirm)).toBe(false);
    expect(stillDue({ ...member, pending_email: 'bob@new.example' }, 'bob@example.com', confirm)).toBe(false);
  });
});
