import '@mantine/core/styles.css';
import './theme.css';
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { onForgetDevice } from '../shared/auth/offline-session';
import { LanguageProvider } from '../shared/i18n/texts';
import { makeStore } from '../shared/store';
import { forgetTickets } from '../features/check-in/device';
import { toastsWanted, wantToasts } from '../shared/lib/toast';
import { routeObjects } from './routes';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

// What the check-in page keeps of customers on this device goes at sign-out.
onForgetDevice(forgetTickets);

const NoToasts = () => null;
const Toasts = lazy<ComponentType>(() => import('./Toasts').catch(() => ({ default: NoToasts })));

/** The toast container, mounted when the page is first idle or when a toast is asked for earlier. */
function ToastsWhenWanted() {
  const wanted = useSyncExternalStore(toastsWanted.subscribe, toastsWanted.get);
  useEffect(() => {
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(wantToasts, { timeout: 5000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = globalThis.setTimeout(wantToasts, 2000);
    return () => globalThis.clearTimeout(id);
  }, []);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

export function App() {
  const [store] = useState(() => makeStore());
  const [router] = useState(() => createBrowserRouter(routeObjects));
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <LanguageProvider>
          <RouterProvider router={router} />
          <ToastsWhenWanted />
        </LanguageProvider>
      </MantineProvider>
    </Provider>
  );
}
