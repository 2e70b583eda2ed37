import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { makeStore } from '../shared/store';

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Renders a page the way the app does: store, theme and a real router, with the path shown. */
export function renderWithApp(ui: ReactElement, { path = '/', store = makeStore() } = {}) {
  const router = createMemoryRouter(
    [{ path: '*', element: <>{ui}<Where /></> }],
    { initialEntries: [path] },
  );
  const view = render(
    <Provider store={store}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </Provider>,
  );
  return { ...view, store, router };
}
