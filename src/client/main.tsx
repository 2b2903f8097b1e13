import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { hydrateAuth } from './stores/auth';
import { applyTheme, ui } from './stores/ui';
import './styles.css';

applyTheme(ui.theme);

// spec §4 / issue: the auth state is read from IndexedDB before the first route decision.
hydrateAuth().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
