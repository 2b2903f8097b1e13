import { lazy, Suspense, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { TwoFactorChallenge } from '../../../shared/schemas/two-factor';
import { Spinner } from '../../ui/loading';
import { routePath } from '../../../shared/routes';
import { useForm } from '../../lib/form';
import { returnPathFrom, routeFor } from '../../lib/navigation';
import { finishLogin, login } from '../../lib/session';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert, PasswordField, TextField } from '../../ui/field';
import { GuestIcon } from '../../ui/guest-icons';
import { AuthHeading, textLink } from './auth-heading';

// zod is a fifth of the login screen's JavaScript: it is fetched at the first keystroke, ahead of the submit
// that needs it (issue 5: login bundle <= 110 KB gzip).
const loadLoginSchema = () => import('../../../shared/schemas/auth').then((module) => module.loginSchema);

// Issue 29: the code step, fetched only for an account with a second factor.
const TwoFactorStep = lazy(() => import('./two-factor-step'));

// Issue 29: passkeys; the WebAuthn code is fetched at the click, off the login screen's budget.
const canUsePasskeys = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export default function Login({ account }: ScreenProps) {
  const query = new URLSearchParams(useSearch());
  const verificationUrl = query.get('verification_url');
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  const form = useForm({
    // A reset sends the user here with their address (?email=).
    initial: { email: query.get('email') ?? '', password: '' },
    schema: loadLoginSchema,
    onSubmit: async (values) => setChallenge(await login(account, values, verificationUrl) ?? null),
  });
  const isPartner = account === 'partner';
  const [isPasskeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const onPasskey = async () => {
    setPasskeyBusy(true);
    setPasskeyError(null);
    try {
      const { signInWithPasskey } = await import('../../lib/passkeys');
      const result = await signInWithPasskey(account);
      if (result.ok) await finishLogin(account, result.value, verificationUrl);
      else setPasskeyError(result.message);
    } catch { /* the API wrapper said why in a toast */ } finally { setPasskeyBusy(false); }
  };

  if (challenge) {
    return (
      <Suspense fallback={<Spinner label="Loading the code step" />}>
        <TwoFactorStep account={account} challenge={challenge} verificationUrl={verificationUrl}
          onRestart={() => { setChallenge(null); form.setValue('password', ''); }} />
      </Suspense>
    );
  }

  return (
    <>
      <AuthHeading
        title={isPartner ? 'Partner sign in' : 'Sign in to your account'}
        description={verificationUrl
          // Opened from the verification mail while signed out (perhaps before a first password exists).
          ? 'Sign in to finish verifying your email address. No password yet? Use the set-password link we emailed you, or "Forgot password?".'
          : returnPathFrom(`?${query}`, account) ? 'Sign in, and the page you opened comes next.'
          : isPartner ? 'Access your pre-billing, invoices and profile.' : 'Welcome back. Enter your details to continue.'}
      />
      <form noValidate onSubmit={form.handleSubmit} onInputCapture={() => void loadLoginSchema()} className="space-y-5">
        <FormAlert message={form.formError ?? passkeyError} />
        <TextField label="Email" type="email" autoComplete="email" inputMode="email" autoFocus required placeholder="you@company.com" {...form.field('email')} />
        <PasswordField label="Password" autoComplete="current-password" required {...form.field('password')} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>Sign in</Button>
        {canUsePasskeys && (
          <Button variant="secondary" className="w-full" isLoading={isPasskeyBusy} onClick={() => void onPasskey()}>
            {!isPasskeyBusy && <GuestIcon name="key" className="size-4" />}Use a passkey
          </Button>
        )}
        {/* After the submit button, not beside the password label: Tab goes e-mail, password, Sign in (issue 14). */}
        <p className="text-center text-sm">
          <Link href={routePath(routeFor(account, 'forgot-password'))} className={textLink}>Forgot password?</Link>
        </p>
      </form>
      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
        {isPartner
          ? <>Internal staff? <Link href={routePath('login')} className={textLink}>Sign in here</Link></>
          : <>Are you a partner? <Link href={routePath('partner.login')} className={textLink}>Go to the partner portal</Link></>}
      </p>
    </>
  );
}
