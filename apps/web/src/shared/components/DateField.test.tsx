import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { DateField } from './DateField';

function Harness({ initial, onChange, required }: { initial: string; onChange: (v: string) => void; required?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <DateField
      label="Day"
      required={required}
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe('DateField', () => {
  it('shows the date in the display format and hands a typed date over as YYYY-MM-DD', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="2026-03-29" onChange={onChange} />);
    const input = screen.getByLabelText('Day');
    expect(input).toHaveValue('29. March 2026');
    // A field that is not required can be cleared, by a button that says what it does.
    expect(screen.getByRole('button', { name: 'Clear Day' })).toBeInTheDocument();

    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith('');
    await userEvent.type(input, '2026-04-0');
    expect(onChange).toHaveBeenCalledTimes(1);
    await userEvent.type(input, '5');
    expect(onChange).toHaveBeenLastCalledWith('2026-04-05');
    fireEvent.blur(input);
    expect(input).toHaveValue('05. April 2026');
  });

  it('a required field is not cleared by emptying it, and a typed nonsense date falls back on leaving', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="2026-03-29" onChange={onChange} required />);
    const input = screen.getByLabelText(/Day/);
    await userEvent.clear(input);
    await userEvent.type(input, '2026-02-30');
    fireEvent.blur(input);
    expect(onChange).not.toHaveBeenCalled();
    expect(input).toHaveValue('29. March 2026');
  });

  it('takes the typed date on Enter and shows it as it reads', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="" onChange={onChange} />);
    const input = screen.getByLabelText('Day');
    await userEvent.type(input, '29.03.2026{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2026-03-29');
    expect(input).not.toHaveFocus();
    expect(input).toHaveValue('29. March 2026');
  });

  it('submits its form on Enter, with the typed date', async () => {
    const submitted = vi.fn();
    function Form() {
      const [value, setValue] = useState('');
      return (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submitted(value);
          }}
        >
          <DateField label="From" value={value} onChange={setValue} />
        </form>
      );
    }
    renderWithApp(<Form />);
    await userEvent.type(screen.getByLabelText('From'), '2026-05-01{Enter}');
    expect(submitted).toHaveBeenCalledWith('2026-05-01');
    expect(screen.getByLabelText('From')).toHaveValue('01. May 2026');
  });
});
