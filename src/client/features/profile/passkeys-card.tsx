// Issue 29: the profile's card for passkeys: each one named, with when it was added and last used;
// add one on this device, rename one, remove one (the password when the sign-in is not recent).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountType } from '../../../shared/routes';
import { type Passkey, passkeyAddForm, type PasskeyList, passkeyRemoveForm, passkeyRenameForm } from '../../../shared/schemas/passkeys';
import { api, isApiError } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { FORM_ERROR, useForm } from '../../lib/form';
import { queryClient } from '../../lib/query';
import { apiPrefix } from '../../lib/session';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { focusRing } from '../../ui/button';
import { FormAlert, PasswordField, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';

const listKey = (account: AccountType) => ['passkeys', account] as const;
const iconButton = `inline-flex size-8 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white ${focusRing}`;
const canMakePasskeys = () => typeof window.PublicKeyCredential === 'function';

export function PasskeysCard({ account }: { account: AccountType }) {
  const [isAdding, setIsAdding] = useState(false);
  const list = useQuery({
    queryKey: listKey(account),
    queryFn: () => api.get<PasskeyList>(`${apiPrefix(account)}/passkeys`, { account, silent: true }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey(account) });
  const data = list.data;
  return (
    <Card>
      <CardHeader id="profile-passkeys" title="Passkeys"
        description="Sign in with your fingerprint, face or device PIN instead of your password and code. The passkey stays on your device." />
      <div className="px-5 py-5">
        {!data && !list.error && <div role="status" aria-label="Loading your passkeys" className="space-y-3"><Skeleton className="h-4 w-2/3" /><Skeleton className="h-4 w-1/2" /></div>}
        {list.error && !data && <FormAlert message={isApiError(list.error) ? list.error.message : 'Your passkeys could not be loaded.'} />}
        {data && (
          <div className="space-y-4">
            {data.data.length === 0 && !isAdding && (
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {canMakePasskeys() ? 'No passkeys yet. Add one on each device you sign in from.' : 'No passkeys yet. This browser cannot make one.'}
              </p>
            )}
            {data.data.length > 0 && (
              <ul aria-label="Your passkeys" className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                {data.data.map((passkey) => (
                  <PasskeyRow key={passkey.id} account={account} passkey={passkey} isPasswordNeeded={data.password_needed} onChanged={() => void refresh()} />
                ))}
              </ul>
            )}
            {isAdding && <AddPasskeyForm account={account} isPasswordNeeded={data.password_needed} onDone={() => { setIsAdding(false); void refresh(); }} />}
            {!isAdding && canMakePasskeys() && (
              <Button variant="secondary" onClick={() => setIsAdding(true)}><Icon name="plus" className="size-4" />Add a passkey</Button>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

function AddPasskeyForm({ account, isPasswordNeeded, onDone }: { account: AccountType; isPasswordNeeded: boolean; onDone: () => void }) {
  const [isPasswordAsked, setPasswordAsked] = useState(isPasswordNeeded);
  const form = useForm({
    initial: { name: '', current_password: '' },
    schema: passkeyAddForm,
    onSubmit: async (values) => {
      const { addPasskey } = await import('../../lib/passkeys');
      try {
        const result = await addPasskey(account, values.name, values.current_password || null);
        if (!result.ok) {
          form.form.setError(FORM_ERROR, { message: result.message ?? 'No passkey was made: the request was cancelled or timed out. Try again when you are ready.' });
          return;
        }
        notify.success(result.value.message);
        onDone();
      } catch (error) {
        // Signed in a while ago: the server asks for the password, and the field appears with its message.
        if (isApiError(error) && error.errors.current_password) setPasswordAsked(true);
        throw error;
      }
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label="Add a passkey" className="space-y-4 rounded-lg bg-slate-50 p-4 dark:bg-slate-800/50">
      <p className="text-sm text-slate-600 dark:text-slate-300">Name it after the device it is on, so you can tell your passkeys apart. Your browser then asks you to confirm with your fingerprint, face or PIN.</p>
      <FormAlert message={form.formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" autoFocus required maxLength={100} placeholder="Work laptop" {...form.field('name')} />
        {isPasswordAsked && <PasswordField label="Current password" autoComplete="current-password" required hint="You signed in more than 10 minutes ago" {...form.field('current_password')} />}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={form.isSubmitting}>Create passkey</Button>
        <Button variant="ghost" onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

function PasskeyRow({ account, passkey, isPasswordNeeded, onChanged }: { account: AccountType; passkey: Passkey; isPasswordNeeded: boolean; onChanged: () => void }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  const done = () => { setMode('view'); onChanged(); };
  return (
    <li className="px-4 py-3">
      {mode === 'rename'
        ? <RenameForm account={account} passkey={passkey} onDone={done} onCancel={() => setMode('view')} />
        : (
          <div className="flex items-start gap-3">
            <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-indigo-600 dark:bg-indigo-500/15 dark:text-indigo-300" aria-hidden="true">
              <Icon name="key" className="size-4" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900 dark:text-white">{passkey.name}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                Added {formatDate(passkey.created_at)}
                {' · '}
                {passkey.last_used_at ? `Last used ${formatDateTime(passkey.last_used_at)}` : 'Not used yet'}
                {passkey.is_backed_up && ' · Synced to your other devices'}
              </p>
            </div>
            {mode === 'view' && (
              <div className="flex shrink-0 gap-1">
                <button type="button" className={iconButton} aria-label={`Rename ${passkey.name}`} title="Rename" onClick={() => setMode('rename')}><Icon name="pencil" className="size-4" /></button>
                <button type="button" className={iconButton} aria-label={`Remove ${passkey.name}`} title="Remove" onClick={() => setMode('remove')}><Icon name="trash" className="size-4" /></button>
              </div>
            )}
          </div>
        )}
      {mode === 'remove' && <RemoveForm account={account} passkey={passkey} isPasswordNeeded={isPasswordNeeded} onDone={done} onCancel={() => setMode('view')} />}
    </li>
  );
}

function RenameForm({ account, passkey, onDone, onCancel }: { account: AccountType; passkey: Passkey; onDone: () => void; onCancel: () => void }) {
  const form = useForm({
    initial: { name: passkey.name },
    schema: passkeyRenameForm,
    onSubmit: async (values) => {
      const answer = await api.patch<{ message: string }>(`${apiPrefix(account)}/passkeys/${passkey.id}`, values, { account, form: true });
      notify.success(answer.message);
      onDone();
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label={`Rename ${passkey.name}`} className="flex flex-wrap items-end gap-2">
      <div className="min-w-48 flex-1"><TextField label="Name" autoFocus required maxLength={100} {...form.field('name')} /></div>
      <Button type="submit" isLoading={form.isSubmitting}>Save</Button>
      <Button variant="ghost" onClick={onCancel}>Cancel</Button>
    </form>
  );
}

function RemoveForm({ account, passkey, isPasswordNeeded, onDone, onCancel }: {
  account: AccountType; passkey: Passkey; isPasswordNeeded: boolean; onDone: () => void; onCancel: () => void;
}) {
  const [isPasswordAsked, setPasswordAsked] = useState(isPasswordNeeded);
  const form = useForm({
    initial: { current_password: '' },
    schema: passkeyRemoveForm,
    onSubmit: async (values) => {
      try {
        const answer = await api.post<{ message: string }>(`${apiPrefix(account)}/passkeys/${passkey.id}/remove`, { current_password: values.current_password || null }, { account, form: true });
        notify.success(answer.message);
        onDone();
      } catch (error) {
        if (isApiError(error) && error.errors.current_password) setPasswordAsked(true);
        throw error;
      }
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label={`Remove ${passkey.name}`} className="mt-3 space-y-3 rounded-lg bg-rose-50 p-3 dark:bg-rose-500/10">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        Remove “{passkey.name}”? It will no longer sign you in{isPasswordAsked ? '. Confirm with your password.' : '.'}
      </p>
      <FormAlert message={form.formError} />
      {isPasswordAsked && <div className="sm:max-w-xs"><PasswordField label="Current password" autoComplete="current-password" autoFocus required {...form.field('current_password')} /></div>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" isLoading={form.isSubmitting}>Remove passkey</Button>
        <Button variant="ghost" onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
