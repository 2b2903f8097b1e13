import type { ReactNode } from 'react';
import { AuthenticatedLayout } from './authenticated-layout';

export default function AppLayout({ routeName, children }: { routeName: string; children: ReactNode }) {
  return <AuthenticatedLayout account="app" routeName={routeName}>{children}</AuthenticatedLayout>;
}
