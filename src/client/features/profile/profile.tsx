// Profile of both account types: details (PATCH /profile) and password (PUT /password).
import { useSnapshot } from 'valtio';
import { updatePasswordSchema, updateProfileSchema, type AuthUser } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { apiPrefix } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { auth, updateUser, useCan } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { FormAlert, PasswordField, TextField } from '../../ui/field';
import type { AccountType } from '../../../shared/routes';
import { BankDetailsForm } from '../../ui/bank-details-form';
import { LeaveBalanceCard } from './leave-balance';
import { NotificationPreferencesCard } from './notification-preferences';
import { PushCard } from './push-card';
import { TwoFactorCard } from './two-factor-card';
import { PasskeysCard } from './passkeys-card';
import { FirmProfileCards } from './firm-profile';

function DetailsForm({ account, user }: { account: AccountType; user: AuthUser | null }) {
  const storedEmail = (user?.email ?? '').toLowerCase();
  const form = useForm({
    initial: { name: user?.name ?? '', email: user?.email ?? '', phone: user?.phone ?? '', current_password: '' },
    schema: updateProfileSchema,
    onSubmit: async (values) => {
      const isEmailChange = values.email !== storedEmail;
      const answer = await api.patch<{ data: AuthUser; message: string }>(`${apiPrefix(account)}/profile`,
        { ...values, phone: values.phone || null, current_password: isEmailChange ? values.current_password : null }, { account, form: true });
      if (answer.data) {
        await updateUser(account, answer.data);
        // A new address is only requested (it changes when the mailed link is opened): show the one the account has.
        form.setValues({ name: answer.data.name, email: answer.data.email, phone: answer.data.phone ?? '', current_password: '' });
      }
      notify.success(answer.message);
    },
  });
  const isEmailChanging = form.values.email.trim().toLowerCase() !== storedEmail;
  return (
    <Card>
      <CardHeader id="profile-details" title="Profile information" description="Your name, email address and phone number." />
      <form noValidate onSubmit={form.handleSubmit} aria-labelledby="profile-details" className="space-y-5 px-5 py-5">
        <FormAlert message={form.formError} />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Name" autoComplete="name" required {...form.field('name')} />
          <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
          <TextField label="Phone" type="tel" autoComplete="tel" {...form.field('phone')} hint="Optional" />
          {isEmailChanging && (
            <PasswordField label="Current password" autoComplete="current-password" required
              hint="Needed to change your email address" {...form.field('current_password')} />
          )}
        </div>
        <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button type="submit" isLoading={form.isSubmitting}>Save</Button>
        </div>
      </form>
    </Card>
  );
}

function PasswordForm({ account }: { account: AccountType }) {
  const form = useForm({
    initial: { current_password: '', password: '', password_confirmation: '' },
    schema: updatePasswordSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ message: string }>(`${apiPrefix(account)}/password`, values, { account, form: true });
      notify.success(answer.message);
      form.reset();
    },
  });
  return (
    <Card>
      <CardHeader id="profile-password" title="Update password" description="Use a long, unique password: at least 8 characters." />
      <form noValidate onSubmit={form.handleSubmit} aria-labelledby="profile-password" className="space-y-5 px-5 py-5">
        <FormAlert message={form.formError} />
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]">
            <PasswordField label="Current password" autoComplete="current-password" required {...form.field('current_password')} />
          </div>
          <PasswordField label="New password" autoComplete="new-password" required {...form.field('password')} />
          <PasswordField label="Confirm new password" autoComplete="new-password" required {...form.field('password_confirmation')} />
        </div>
        <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button type="submit" isLoading={form.isSubmitting}>Update password</Button>
        </div>
      </form>
    </Card>
  );
}

export default function Profile({ account }: ScreenProps) {
  const { user } = useSnapshot(auth[account]);
  const can = useCan(account);
  return (
    <>
      <PageHeader title="Profile" description="Manage your account details, notifications and password." />
      <div className="space-y-6">
        {/* Keyed by user id so the form starts from the stored user once /me has answered. */}
        <DetailsForm key={user?.id ?? 'none'} account={account} user={user as AuthUser | null} />
        {account === 'app' && can('can-view-leave-application') && (
          <LeaveBalanceCard canApply={can('can-create-leave-application')} />
        )}
        {/* Issue 21: where approved expense claims are paid; seen only by the person and finance. */}
        {account === 'app' && user && can('can-add-expense') && (
          <Card>
            <CardHeader id="profile-bank" title="Bank details" description="Where your reimbursed expense claims are paid. Only you and finance can see them." />
            <BankDetailsForm userId={user.id} isOwn />
          </Card>
        )}
        {/* Issue 28: the firm's details, bank details and (for its admin logins) colleagues. */}
        {account === 'partner' && <FirmProfileCards />}
        <NotificationPreferencesCard account={account} />
        <PushCard account={account} />
        <PasswordForm account={account} />
        <TwoFactorCard account={account} />
        <PasskeysCard account={account} />
      </div>
    </>
  );
}
