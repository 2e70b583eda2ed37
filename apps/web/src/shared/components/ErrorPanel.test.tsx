import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { ErrorPanel } from './ErrorPanel';

describe('ErrorPanel', () => {
  it('says "An error occured!" by default, with no button and no logo', () => {
    renderWithApp(<ErrorPanel />);
    expect(screen.getByRole('alert')).toHaveTextContent('An error occured!');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('error-panel-logo')).toBeNull();
  });

  it('shows the formal message and the logo when asked', () => {
    renderWithApp(<ErrorPanel message="Boom" formalMessage="Error 42: the flux capacitor failed." logo />);
    expect(screen.getByText('Boom')).toBeInTheDocument();
    expect(screen.getByText('Error 42: the flux capacitor failed.')).toBeInTheDocument();
    expect(screen.getByTestId('error-panel-logo')).toBeInTheDocument();
  });

  it('navigates with an action button labelled "Click" by default', async () => {
    renderWithApp(<ErrorPanel actionPath="/orders/list" />, { path: '/somewhere' });
    await userEvent.click(screen.getByRole('button', { name: 'Click' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/orders/list');
  });
});
