// Every client test starts as a fresh page does: an empty query cache (src/client/lib/query.ts) and no
// toast shown or waiting. One test's answers must not show in the next one's screen.
import { configure } from '@testing-library/react';
import { afterEach, inject } from 'vitest';

// A screen fetched lazily (the login screen, a feature's chunk) can take over a second to arrive on a
// loaded machine, as in CI's run beside the browser journeys: the finders wait up to five, not one.
configure({ asyncUtilTimeout: 5_000 });

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project runs one file after another in a worker (isolate: false), modules shared. */
    sharesModules?: boolean;
  }
}

afterEach(async () => {
  if (typeof window === 'undefined') return; // server and rule tests have no client
  const { queryClient } = await import('../../src/client/lib/query');
  queryClient.cancelQueries();
  queryClient.clear();
  // A toast raised while no container was mounted waits in react-toastify's queue, and would appear in
  // the next container mounted: in a worker that runs one file after another, another file's. (The
  // isolated files get their own modules, and may mock react-toastify.)
  if (!inject('sharesModules')) return;
  const { clearToasts } = await import('../../src/client/lib/toast');
  clearToasts();
});
