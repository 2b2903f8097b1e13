// Every client test starts with an empty query cache (src/client/lib/query.ts), as a fresh page does:
// one test's answers must not show in the next one's screen.
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof window === 'undefined') return; // server and rule tests have no client
  const { queryClient } = await import('../../src/client/lib/query');
  queryClient.cancelQueries();
  queryClient.clear();
});
