import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { setAppInfo, setUser } from '../auth/auth-slice';
import { makeStore } from '../store';
import { NO_FEATURE_MESSAGE, NO_PERMISSION_MESSAGE, RouteGuard } from './RouteGuard';

function storeWith(codenames: string[], features: string[]) {
  const store = makeStore();
  store.dispatch(setAppInfo({ permission_sets: [{ title: 'Manage orders', codenames: ['view_order', 'change_order'] }] }));
  store.dispatch(
    setUser({
      role: { permission_sets: [{ title: 'r', codenames }] },
      base_account: { subdomain: 'acme', active_subscription_features: features },
    }),
  );
  return store;
}

const page = <p>secret page</p>;

describe('RouteGuard', () => {
  it('shows the page when the route needs nothing', () => {
    renderWithApp(<RouteGuard>{page}</RouteGuard>, { store: makeStore() });
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });

  it('refuses without the permission set, with a way to the dashboard', async () => {
    renderWithApp(<RouteGuard permissions={['Manage orders']}>{page}</RouteGuard>, {
      path: '/orders/list',
      store: storeWith(['view_order'], []),
    });
    expect(screen.queryByText('secret page')).toBeNull();
    expect(screen.getByText(NO_PERMISSION_MESSAGE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to dashboard' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it('refuses without the plan feature, with a way to the supplier plans', async () => {
    renderWithApp(
      <RouteGuard permissions={['Manage orders']} features={['resales']}>
        {page}
      </RouteGuard>,
      { path: '/resales/overview', store: storeWith(['view_order', 'change_order'], ['qr_codes']) },
    );
    expect(screen.getByText(NO_FEATURE_MESSAGE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade now' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/subscription/supplier-plans');
  });

  it('shows the page when both permission and feature are held', () => {
    renderWithApp(
      <RouteGuard permissions={['Manage orders']} features={['resales']}>
        {page}
      </RouteGuard>,
      { store: storeWith(['view_order', 'change_order'], ['resales']) },
    );
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });
});
