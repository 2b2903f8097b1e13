// Issue 29: setting up a second factor (a QR code and the key as text, confirmed by a first code,
// then ten recovery codes shown once). Used by the profile's card and by the screen a role that asks
// for a second factor sends its holders to.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountType } from '../../shared/routes';
import { twoFactorConfirmSchema, type TwoFactorSetup } from '../../shared/schemas/two-factor';
import { api, isApiError } from '../lib/api';
import { useForm } from '../lib/form';
import { queryKeys } from '../lib/query';
import { apiPrefix, refreshMe } from '../lib/session';
import { notify } from '../lib/toast';
import { Button } from './button';
import { FormAlert, TextField } from './field';
import { Spinner } from './loading';

export const statusKey = (account: AccountType) => queryKeys.screen('two-factor', account);

/** Scans (or types) the secret into an authenticator app, confirms with a first code, then shows the recovery codes. */
export function TwoFactorSetupPanel({ account, onDone }: { account: AccountType; onDone: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const setup = useQuery({
    queryKey: [...statusKey(account), 'setup'],
    queryFn: () => api.post<TwoFactorSetup>(`${apiPrefix(account)}/two-factor/setup`, undefined, { account, silent: true }),
    // A new secret each time would void the one already scanned: fetched once per set-up.
    staleTime: Infinity, gcTime: 0, retry: false,
  });
  const form = useForm({
    initial: { code: '' },
    schema: twoFactorConfirmSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ recovery_codes: string[]; message: string }>(`${apiPrefix(account)}/two-factor/confirm`, values, { account, form: true });
      notify.success(answer.message);
      setCodes(answer.recovery_codes);
      await refreshMe(account);
    },
  });

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (setup.error) return <FormAlert message={isApiError(setup.error) ? setup.error.message : 'The set-up could not start. Try again.'} />;
  if (!setup.data) return <div className="flex justify-center py-8"><Spinner label="Preparing your set-up" /></div>;
  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).</li>
        <li>Scan the QR code, or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* White behind the code in dark mode too: scanners read dark modules on a light ground. */}
        <img src={setup.data.qr_code} alt="QR code to scan with your authenticator app" width={176} height={176}
          className="size-44 shrink-0 rounded-lg bg-white p-1 ring-1 ring-slate-200 dark:ring-slate-700" />
        <div className="min-w-0 space-y-2 text-sm">
          <p className="text-slate-600 dark:text-slate-300">Can't scan it? Enter this key in the app (time-based, 6 digits):</p>
          <code className="block break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm tracking-wider text-slate-900 select-all dark:bg-slate-800 dark:text-slate-100">
            {setup.data.secret.match(/.{1,4}/g)?.join(' ')}
          </code>
        </div>
      </div>
      <form noValidate onSubmit={form.handleSubmit} className="space-y-4 sm:max-w-xs">
        <FormAlert message={form.formError} />
        <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} required
          className="font-mono tracking-[0.3em]" {...form.field('code')} />
        <Button type="submit" isLoading={form.isSubmitting}>Turn on two-factor sign-in</Button>
      </form>
    </div>
  );
}

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Recovery codes for two-factor sign-in. Each works once.\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard?.writeText(text).then(() => notify.success('Recovery codes copied.'), () => notify.error('Copying did not work: select the codes and copy them.'));
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div className="space-y-4">
      <div role="note" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:text-amber-100 dark:ring-amber-900">
        Save these recovery codes now: they are shown only this once. If your phone is lost, each one signs you in once instead of a code.
      </div>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-lg bg-slate-100 p-4 font-mono text-sm text-slate-900 sm:max-w-md dark:bg-slate-800 dark:text-slate-100">
        {codes.map((code) => <li key={code}>{code}</li>)}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>Copy</Button>
        <Button variant="secondary" onClick={download}>Download</Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}

