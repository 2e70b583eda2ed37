import './shared/lib/zod-no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { rememberedSession } from './shared/auth/offline-session';
import { startLanguage } from './shared/i18n/language';
import { registerServiceWorker } from './shared/lib/service-worker';

// The language of this host's last user, until the session check knows the user's own.
startLanguage(rememberedSession().user?.language);
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
registerServiceWorker();
