import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TExperience } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStore } from '../../../shared/store';
import { renderWithApp } from '../../../test/render';
import { BookingInfoStep } from './BookingInfoStep';

const loaded = { id: '00000000-0000-4000-8000-0000000000e1', meeting_instructions: 'At the pier.', voucher_text: 'Show this ticket.' } as TExperience;

/** The step with its experience, and a way to hand it a newer copy of it (as a refetch does). */
function Harness() {
  const [experience, setExperience] = useState(loaded);
  return (
    <>
      <BookingInfoStep experience={experience} />
      <button type="button" onClick={() => setExperience({ ...loaded, voucher_text: 'Show this ticket at the desk.' })}>
        refetched
      </button>
    </>
  );
}

let server: FastifyInstance;
let baseUrl: string;
const patches: Record<string, unknown>[] = [];
beforeAll(async () => {
  server = Fastify();
  server.patch(`/api/experiences/${loaded.id}/`, async (req) => {
    patches.push(req.body as Record<string, unknown>);
    return { ...loaded, ...(req.body as object) };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

describe('an editor step’s form', () => {
  it('saves and continues to the next step without asking about the changes it has just saved', async () => {
    const user = userEvent.setup();
    const { getByTestId } = renderWithApp(<BookingInfoStep experience={loaded} />, {
      path: `/products/experiences/editor/${loaded.id}/booking-info`,
      store: makeStore({ apiBaseUrl: baseUrl }),
    });
    await user.type(screen.getByLabelText('Meeting instructions'), ' Ring twice.');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(getByTestId('location')).toHaveTextContent(`/products/experiences/editor/${loaded.id}/preview`));
    expect(patches).toEqual([expect.objectContaining({ meeting_instructions: 'At the pier. Ring twice.' })]);
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });

  it('keeps what the user typed when the experience arrives again, and takes the fields they did not touch', async () => {
    const user = userEvent.setup();
    renderWithApp(<Harness />, { path: `/products/experiences/editor/${loaded.id}/booking-info` });
    const meeting = screen.getByLabelText('Meeting instructions');
    await user.clear(meeting);
    await user.type(meeting, 'At the boathouse.');
    await user.click(screen.getByRole('button', { name: 'refetched' }));
    expect(screen.getByLabelText('Meeting instructions')).toHaveValue('At the boathouse.');
    expect(screen.getByLabelText('Voucher text')).toHaveValue('Show this ticket at the desk.');
  });

  it('keeps the reasons a save was refused when the experience arrives again', async () => {
    const user = userEvent.setup();
    renderWithApp(<Harness />, { path: `/products/experiences/editor/${loaded.id}/booking-info` });
    const meeting = screen.getByLabelText('Meeting instructions');
    await user.clear(meeting);
    await user.click(meeting);
    await user.paste('x'.repeat(5001));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(meeting).toHaveAttribute('aria-invalid', 'true'));
    await user.click(screen.getByRole('button', { name: 'refetched' }));
    expect(screen.getByLabelText('Voucher text')).toHaveValue('Show this ticket at the desk.');
    expect(screen.getByLabelText('Meeting instructions')).toHaveAttribute('aria-invalid', 'true');
  });
});
