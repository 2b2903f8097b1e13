// The query cache (lib/query.ts) for screens outside the authenticated layout: the guest layout loads this
// chunk only for the screens of a signed-in account that must finish something first (kind 'auth' of the
// route table: force-reset-password, verify-email, two-factor-setup), so the login route never downloads it.
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query';

export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
