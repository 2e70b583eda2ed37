import '@mantine/core/styles.css';
import 'react-toastify/dist/ReactToastify.css';
import './theme.css';
import { MantineProvider, useComputedColorScheme } from '@mantine/core';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { onForgetDevice } from '../shared/auth/offline-session';
import { makeStore } from '../shared/store';
import { forgetTickets } from '../features/check-in/device';
import { TOAST_CONTAINER_PROPS } from '../shared/lib/toast';
import { routeObjects } from './routes';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

// What the check-in page keeps of customers on this device goes at sign-out.
onForgetDevice(forgetTickets);

function Toasts() {
  const scheme = useComputedColorScheme('light');
  return <ToastContainer {...TOAST_CONTAINER_PROPS} theme={scheme} />;
}

export function App() {
  const [store] = useState(() => makeStore());
  const [router] = useState(() => createBrowserRouter(routeObjects));
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <RouterProvider router={router} />
        <Toasts />
      </MantineProvider>
    </Provider>
  );
}
