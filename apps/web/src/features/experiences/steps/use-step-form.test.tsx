import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TExperience } from '@tourdesk/contracts';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
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

describe('an editor step’s form', () => {
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
});
