import { describe, expect, it } from 'vitest';
import { HTTP_URL_DETAIL, httpUrl, ZHttpUrl } from './text';

describe('URLs that operators set accept http(s) only (issue 29)', () => {
  const bad = ['javascript:alert(1)', ' javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'ftp://example.com/', 'mailto:a@example.com', '/relative', ''];
  it('ZHttpUrl refuses every other scheme with a clear message', () => {
    for (const url of bad) {
      const parsed = ZHttpUrl().safeParse(url);
      expect(parsed.success, url).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]!.message).toBe(HTTP_URL_DETAIL);
    }
    expect(ZHttpUrl().parse('https://www.example.com/terms')).toBe('https://www.example.com/terms');
    expect(ZHttpUrl().parse('http://example.com')).toBe('http://example.com');
  });
  it('httpUrl links only http(s) addresses, whatever was stored', () => {
    for (const url of bad) expect(httpUrl(url), url).toBeNull();
    expect(httpUrl(null)).toBeNull();
    expect(httpUrl('https://www.example.com/terms')).toBe('https://www.example.com/terms');
  });
});
