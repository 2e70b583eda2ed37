import '@mantine/core/styles.css';
import './theme.css';
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { onForgetDevice } from '../shared/auth/offline-session';
import { makeStore } from '../shared/store';
import { forgetTickets } from '../features/check-in/device';
import { routeObjects } from './routes';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

// What the check-in page keeps of customers on this device goes at sign-out.
onForgetDevice(forgetTickets);

const Toasts = lazy(() => import('./Toasts'));

export function App() {
  const [store] = useState(() => makeStore());
  const [router] = useState(() => createBrowserRouter(routeObjects));
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <RouterProvider router={router} />
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      </MantineProvider>
    </Provider>
  );
}
