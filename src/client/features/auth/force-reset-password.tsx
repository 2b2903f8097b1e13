import { forceResetPasswordSchema } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { goToRoute, loginRoute } from '../../lib/navigation';
import { apiPrefix, logout } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { clearAuth } from '../../stores/auth';
import { Button } from '../../ui/button';
import { FormAlert, PasswordField } from '../../ui/field';
import { AuthHeading } from './auth-heading';

export default function ForceResetPassword({ account }: ScreenProps) {
  const form = useForm({
    initial: { password: '', password_confirmation: '' },
    schema: forceResetPasswordSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>(`${apiPrefix(account)}/force-reset-password`, values, { account, form: true });
      notify.success(answer.message);
      // spec §4: success shows the message and goes to login, where the new password is used.
      await api.post(`${apiPrefix(account)}/logout`, undefined, { account, silent: true }).catch(() => undefined);
      await clearAuth(account);
      goToRoute(loginRoute(account), undefined, { replace: true });
    },
  });

  return (
    <>
      <AuthHeading icon="lock" title="Set a new password"
        description="Your account needs a new password before you continue. Use at least 8 characters." />
      <form noValidate onSubmit={form.handleSubmit} className="space-y-5">
        <FormAlert message={form.formError} />
        <PasswordField label="New password" autoComplete="new-password" autoFocus required {...form.field('password')} />
        <PasswordField label="Confirm new password" autoComplete="new-password" required {...form.field('password_confirmation')} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>Update password</Button>
      </form>
      <div className="mt-6 text-center">
        <Button variant="ghost" size="sm" onClick={() => logout(account)}>Log Out</Button>
      </div>
    </>
  );
}
