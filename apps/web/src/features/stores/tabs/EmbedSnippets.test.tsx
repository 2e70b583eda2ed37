import { describe, expect, it } from 'vitest';
import { embedSnippets } from './EmbedSnippets';

describe('embedSnippets', () => {
  it('loads embed.js from the organisation’s host, for the store and for one offer’s button', () => {
    const s = embedSnippets({ url: 'https://alpine.tourdesk.example/s/kayak/', slug: 'kayak' }, '0b1c2d3e-0000-4000-8000-000000000001');
    expect(s.inline).toBe('<script src="https://alpine.tourdesk.example/embed.js" data-store="kayak" async></script>');
    expect(s.button).toBe('<script src="https://alpine.tourdesk.example/embed.js" data-store="kayak" data-offer="0b1c2d3e-0000-4000-8000-000000000001" data-mode="button" async></script>');
    expect(embedSnippets({ url: 'http://demo.localhost:3000/s/kayak/', slug: 'kayak' }).button).toBe('');
  });
});
