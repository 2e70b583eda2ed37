import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Activity, useState, version } from 'react';
import { describe, expect, it } from 'vitest';

/** The back office runs on Preact (vite.config.ts); these check what react-on-preact.mjs adds. */
describe('react on Preact', () => {
  it('is Preact’s compatibility layer that renders here, as in the build', async () => {
    const preact = await import('preact/compat');
    expect(version).toBe(preact.version);
  });

  it('<Activity> hides its children while hidden and keeps their state', async () => {
    function Counter() {
      const [n, setN] = useState(0);
      return <button onClick={() => setN(n + 1)}>clicked {n}</button>;
    }
    function Panel() {
      const [mode, setMode] = useState<'visible' | 'hidden'>('visible');
      return (
        <>
          <button onClick={() => setMode(mode === 'visible' ? 'hidden' : 'visible')}>toggle</button>
          <Activity mode={mode}>
            <Counter />
          </Activity>
        </>
      );
    }
    render(<Panel />);
    await userEvent.click(screen.getByRole('button', { name: 'clicked 0' }));
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    expect(screen.queryByRole('button', { name: 'clicked 1' })).toBeNull();
    expect(screen.getByText('clicked 1', { selector: 'button' })).not.toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeVisible();
  });
});
