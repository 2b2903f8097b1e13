import { Link } from 'wouter';
import { routePath, routesByName } from '../../../shared/routes';
import { useCan } from '../../stores/auth';
import { logout } from '../../lib/session';
import type { ScreenProps } from '../../routes';
import { Button, focusRing } from '../../ui/button';
import { cx } from '../../ui/cx';
import { StatusPage } from './status-page';

export default function AccessDenied({ account }: ScreenProps) {
  // Without the dashboard's permission the button would only bring us back here.
  const canOpenDashboard = useCan(account)(routesByName.dashboard.permission);
  return (
    <StatusPage
      code="403"
      icon="shield"
      title="Access Denied"
      message="Your account does not have permission to open this page. If you think it should, ask an administrator."
      actions={(
        <>
          {canOpenDashboard && <Link href={routePath('dashboard')} className={cx('inline-flex h-10 items-center rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
            Back to Dashboard
          </Link>}
          <Button variant="secondary" onClick={() => logout(account)}>Log Out</Button>
        </>
      )}
    />
  );
}
