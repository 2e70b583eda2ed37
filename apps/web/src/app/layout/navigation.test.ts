import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../routes';
import { NAVIGATION } from './navigation';

describe('the menu', () => {
  it('leads only to pages that exist', () => {
    const targets = NAVIGATION.flatMap((item) => [item.to, ...(item.children ?? []).map((c) => c.to)]);
    const missing = targets.filter((to) => !PAGES.some((page) => matchPath({ path: page.path, end: true }, to)));
    expect(missing).toEqual([]);
  });
});
