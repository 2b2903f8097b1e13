import { Link } from 'wouter';
import { routePath } from '../../../shared/routes';
import type { ScreenProps } from '../../routes';
import { focusRing } from '../../ui/button';
import { cx } from '../../ui/cx';
import { StatusPage } from './status-page';

/** not-found, and not-found-partner for unknown /partner paths (spec §2). */
export default function NotFound({ account }: ScreenProps) {
  const isPartner = account === 'partner';
  return (
    <StatusPage
      code="404"
      icon="compass"
      title="Page not found"
      message={isPartner
        ? 'This page does not exist in the partner portal. It may have moved, or the link may be mistyped.'
        : 'The page you are looking for does not exist. It may have moved, or the link may be mistyped.'}
      actions={(
        <Link href={isPartner ? routePath('partner.login') : routePath('login')}
          className={cx('inline-flex h-10 items-center rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
          {isPartner ? 'Go to the partner portal' : 'Go to the home page'}
        </Link>
      )}
    />
  );
}
