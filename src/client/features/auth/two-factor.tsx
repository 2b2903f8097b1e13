// Issue 29: where a role that asks for a second factor sends its holders before anything else.
import { goToRoute, homeRoute } from '../../lib/navigation';
import { logout } from '../../lib/session';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { TwoFactorSetupPanel } from '../../ui/two-factor-setup';
import { AuthHeading } from './auth-heading';

/** Where a role that asks for a second factor sends its holders before anything else (409 TWO_FACTOR_SETUP_REQUIRED). */
export default function TwoFactorSetupScreen({ account }: ScreenProps) {
  // The guest layout provides the query client for this screen (layout/query-provider.tsx).
  return (
    <>
      <AuthHeading icon="lock" title="Set up two-factor sign-in"
        description="Your role asks for a second factor: a code from an app on your phone, asked after your password. Set it up to continue." />
      <TwoFactorSetupPanel account={account} onDone={() => goToRoute(homeRoute(account), undefined, { replace: true })} />
      <div className="mt-6 text-center">
        <Button variant="ghost" size="sm" onClick={() => logout(account)}>Log Out</Button>
      </div>
    </>
  );
}
