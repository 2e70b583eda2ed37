import '@mantine/core/styles.css';
import 'react-toastify/dist/ReactToastify.css';
import './theme.css';
import { MantineProvider, useComputedColorScheme } from '@mantine/core';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { makeStore } from '../shared/store';
import { TOAST_CONTAINER_PROPS } from '../shared/lib/toast';
import { routeObjects } from './routes';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

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
