// Issue 29: the profile's card for the second factor: whether it is on, set it up, turn it off, new recovery codes.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountType } from '../../../shared/routes';
import { twoFactorGuardedSchema, type TwoFactorStatus } from '../../../shared/schemas/two-factor';
import { api, isApiError } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useForm } from '../../lib/form';
import { queryClient } from '../../lib/query';
import { apiPrefix, refreshMe } from '../../lib/session';
import { notify } from '../../lib/toast';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert, PasswordField, TextField } from '../../ui/field';
import { Skeleton } from '../../ui/loading';
import { RecoveryCodes, statusKey, TwoFactorSetupPanel } from '../../ui/two-factor-setup';

/** The profile's card: whether the second factor is on, and what the person can do with it. */
export function TwoFactorCard({ account }: { account: AccountType }) {
  const [isSettingUp, setIsSettingUp] = useState(false);
  const [guarded, setGuarded] = useState<'off' | 'codes' | null>(null);
  const status = useQuery({
    queryKey: statusKey(account),
    queryFn: () => api.get<TwoFactorStatus>(`${apiPrefix(account)}/two-factor`, { account, silent: true }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: statusKey(account) });
  const data = status.data;
  return (
    <Card>
      <CardHeader id="profile-two-factor" title="Two-factor sign-in"
        description="A code from an app on your phone, asked after your password, so that a password alone does not open your account."
        actions={data && <Badge tone={data.enabled ? 'green' : 'gray'}>{data.enabled ? 'On' : 'Off'}</Badge>} />
      <div className="px-5 py-5">
        {!data && !status.error && <div role="status" aria-label="Loading your two-factor sign-in" className="space-y-3"><Skeleton className="h-4 w-2/3" /><Skeleton className="h-9 w-40" /></div>}
        {status.error && !data && <FormAlert message={isApiError(status.error) ? status.error.message : 'Your two-factor sign-in could not be loaded.'} />}
        {data && !data.enabled && (isSettingUp
          ? <TwoFactorSetupPanel account={account} onDone={() => { setIsSettingUp(false); void refresh(); }} />
          : (
            <div className="space-y-3">
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {data.required ? 'Your role asks for two-factor sign-in.' : 'Two-factor sign-in is off: your password alone signs you in.'}
              </p>
              <Button onClick={() => setIsSettingUp(true)}>Set up two-factor sign-in</Button>
            </div>
          ))}
        {data?.enabled && (
          <div className="space-y-4">
            <p className="text-sm text-slate-600 dark:text-slate-300">
              On since {formatDate(data.enabled_at)}. {data.recovery_codes_left === 1 ? 'One recovery code is' : `${data.recovery_codes_left} recovery codes are`} left.
              {data.required && ' Your role asks for it, so it stays on.'}
            </p>
            {guarded
              ? <GuardedForm account={account} action={guarded} onDone={() => { setGuarded(null); void refresh(); }} />
              : (
                <div className="flex flex-wrap gap-2">
                  <Button variant="secondary" onClick={() => setGuarded('codes')}>Make new recovery codes</Button>
                  {!data.required && <Button variant="danger" onClick={() => setGuarded('off')}>Turn off</Button>}
                </div>
              )}
          </div>
        )}
      </div>
    </Card>
  );
}

/** Turning it off, or new recovery codes: both take the password and a current code. */
function GuardedForm({ account, action, onDone }: { account: AccountType; action: 'off' | 'codes'; onDone: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useForm({
    initial: { current_password: '', code: '' },
    schema: twoFactorGuardedSchema,
    onSubmit: async (values) => {
      if (action === 'off') {
        const answer = await api.post<{ message: string }>(`${apiPrefix(account)}/two-factor/disable`, values, { account, form: true });
        notify.success(answer.message);
        await refreshMe(account);
        onDone();
      } else {
        const answer = await api.post<{ recovery_codes: string[]; message: string }>(`${apiPrefix(account)}/two-factor/recovery-codes`, values, { account, form: true });
        notify.success(answer.message);
        setCodes(answer.recovery_codes);
      }
    },
  });
  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  return (
    <form noValidate onSubmit={form.handleSubmit} className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {action === 'off' ? 'To turn it off, confirm your password and a code from your app.' : 'Your current recovery codes stop working once the new ones are made.'}
      </p>
      <FormAlert message={form.formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField label="Current password" autoComplete="current-password" autoFocus required {...form.field('current_password')} />
        <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} required className="font-mono tracking-[0.3em]" {...form.field('code')} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={action === 'off' ? 'danger' : 'primary'} isLoading={form.isSubmitting}>
          {action === 'off' ? 'Turn off two-factor sign-in' : 'Make new recovery codes'}
        </Button>
        <Button variant="ghost" onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

