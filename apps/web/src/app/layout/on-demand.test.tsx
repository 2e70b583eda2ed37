import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { useOnDemand } from './on-demand';

/** What a popup module exports: the control, opened when it takes the trigger's place. */
function Popup({ defaultOpened }: { defaultOpened?: boolean }) {
  const [opened, setOpened] = useState(Boolean(defaultOpened));
  return (
    <>
      <button onClick={() => setOpened(!opened)}>menu</button>
      {opened && <div role="menu">items</div>}
    </>
  );
}

function Control({ load }: { load: () => Promise<{ default: ComponentType<{ defaultOpened?: boolean }> }> }) {
  const { triggerProps, render: draw } = useOnDemand(load);
  return draw(<button {...triggerProps}>menu</button>, {});
}

describe('a header control loaded on demand', () => {
  it('draws the trigger without loading the popup, and opens it when pressed', async () => {
    let loads = 0;
    render(<Control load={() => (loads++, Promise.resolve({ default: Popup }))} />);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(loads).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'menu' }));
    expect(await screen.findByRole('menu')).toHaveTextContent('items');
    await userEvent.click(screen.getByRole('button', { name: 'menu' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('keeps the trigger when the popup’s code cannot be fetched (offline before it ever was)', async () => {
    render(<Control load={() => Promise.reject(new Error('Failed to fetch dynamically imported module'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'menu' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole('button', { name: 'menu' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
