// Issue 29: the code step of a sign-in, after a right password for an account with a second factor.
// Loaded only when the password step asks for it, so the login screen stays within its budget.
import { useState } from 'react';
import type { AccountType } from '../../../shared/routes';
import type { LoginResponse } from '../../../shared/schemas/auth';
import { twoFactorSignInSchema, type TwoFactorChallenge } from '../../../shared/schemas/two-factor';
import { api, isApiError } from '../../lib/api';
import { useForm } from '../../lib/form';
import { apiPrefix, finishLogin } from '../../lib/session';
import { Button } from '../../ui/button';
import { FormAlert, TextField } from '../../ui/field';
import { AuthHeading } from './auth-heading';

export default function TwoFactorStep({ account, challenge, verificationUrl, onRestart }: {
  account: AccountType; challenge: TwoFactorChallenge; verificationUrl: string | null;
  /** Back to the password step (the challenge expired, or the person chose to). */
  onRestart: () => void;
}) {
  const [isRecovery, setIsRecovery] = useState(false);
  const form = useForm({
    initial: { two_factor_token: challenge.two_factor_token, code: '', recovery_code: '' },
    schema: twoFactorSignInSchema,
    onSubmit: async (values) => {
      const body = isRecovery
        ? { two_factor_token: values.two_factor_token, recovery_code: values.recovery_code }
        : { two_factor_token: values.two_factor_token, code: values.code };
      try {
        const response = await api.post<LoginResponse>(`${apiPrefix(account)}/login/two-factor`, body, { account, form: true });
        await finishLogin(account, response, verificationUrl);
      } catch (error) {
        // The challenge lasts five minutes: past that, the password step again (the API wrapper says why in a toast).
        if (isApiError(error) && error.status === 401) onRestart();
        else throw error;
      }
    },
  });

  return (
    <>
      <AuthHeading icon="lock" title="Two-factor sign-in"
        description={isRecovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for this account.'} />
      <form noValidate onSubmit={form.handleSubmit} className="space-y-5">
        <FormAlert message={form.formError} />
        {isRecovery
          ? <TextField key="recovery" label="Recovery code" autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus required
              placeholder="abcd-efgh-2345" {...form.field('recovery_code')} />
          : <TextField key="code" label="Code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} autoFocus required
              className="text-center font-mono text-lg tracking-[0.3em]" {...form.field('code')} />}
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>Verify and sign in</Button>
      </form>
      <div className="mt-6 flex flex-col items-center gap-2 text-sm">
        <Button variant="ghost" size="sm" onClick={() => setIsRecovery(!isRecovery)}>
          {isRecovery ? 'Use a code from your app instead' : 'Lost your phone? Use a recovery code'}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onRestart()}>Back to sign in</Button>
      </div>
    </>
  );
}
