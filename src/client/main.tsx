import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { hydrateAuth } from './stores/auth';
import { refreshFirm } from './stores/firm';
import { watchConnectivity } from './stores/pwa';
import { applyTheme, ui } from './stores/ui';
import './styles.css';

applyTheme(ui.theme);
watchConnectivity();

/** Issue 5: the service worker and the outbox load after the page, off the login screen's critical path. */
function afterLoad(run: () => void) {
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

// spec §4 / issue: the auth state is read from IndexedDB before the first route decision.
hydrateAuth().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  afterLoad(() => {
    void import('./lib/pwa').then((module) => module.registerServiceWorker());
    void import('./lib/outbox').then((module) => module.startOutbox());
    void refreshFirm();
  });
});
