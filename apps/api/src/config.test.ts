import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the defaults of npm start', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./.data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SEED_DEMO).toBe(true);
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('reads PORT, DATA_DIR and DATABASE_URL', () => {
    const config = loadConfig({ PORT: '4100', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(config).toMatchObject({ PORT: 4100, dataDir: '/tmp/x', DATABASE_URL: 'postgres://u@h:5432/db' });
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['SEED_DEMO', 'maybe'],
  ])('refuses %s=%s with a message naming the variable and the value', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: .*\\(got "${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\)`));
  });

  it('never prints a secret, or a URL that may hold a password, back in its message', () => {
    for (const [name, value] of [
      ['JWT_SECRET', 'too-short-but-secret'],
      ['DATABASE_URL', 'mysql://root:hunter2@localhost/db'],
      ['SMTP_URL', 'http://mail:pa55@host'],
    ] as const) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(`${name}: `);
      expect(message).toContain('(value not shown)');
      expect(message).not.toContain(value);
    }
  });

  it('does not seed the demo organisation in production unless asked for', () => {
    expect(loadConfig({}).SEED_DEMO).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).SEED_DEMO).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
  });
});
