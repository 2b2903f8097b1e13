import type { ReactNode } from 'react';
import { AuthenticatedLayout } from './authenticated-layout';

/** spec §2: Dashboard, Pre Billing, Invoice (can-view-invoice); dark toggle; avatar menu Profile / Log Out. */
export default function PartnerLayout({ routeName, children }: { routeName: string; children: ReactNode }) {
  return <AuthenticatedLayout account="partner" routeName={routeName}>{children}</AuthenticatedLayout>;
}
