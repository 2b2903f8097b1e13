import { Link, useSearch } from 'wouter';
import { routePath } from '../../../shared/routes';
import { resetPasswordSchema } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { loginRoute, navigate } from '../../lib/navigation';
import { apiPrefix } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert, PasswordField, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { AuthHeading, textLink } from './auth-heading';

export default function ResetPassword({ account, params }: ScreenProps) {
  const query = new URLSearchParams(useSearch());
  const email = query.get('email') ?? '';
  // The invitation mailed to a new account carries ?welcome=1: a first password is set, not reset (issue 14).
  const isFirstPassword = query.get('welcome') === '1';
  const form = useForm({
    initial: { token: params.token ?? '', email, password: '', password_confirmation: '' },
    schema: resetPasswordSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>(`${apiPrefix(account)}/reset-password`, values, { account, form: true });
      notify.success(answer.message);
      // The sign-in form opens with the address already in it: only the new password to type.
      navigate(`${routePath(loginRoute(account))}?email=${encodeURIComponent(values.email)}`);
    },
  });

  return (
    <>
      <AuthHeading
        icon="lock"
        title={isFirstPassword ? 'Set your password' : 'Reset password'}
        description={isFirstPassword
          ? 'Welcome! Choose a password of at least 8 characters. You will sign in with it next.'
          : 'Choose a new password of at least 8 characters. You will sign in with it next.'}
      />
      <form noValidate onSubmit={form.handleSubmit} className="space-y-5">
        <FormAlert message={form.errors.token?.[0] ?? form.formError} />
        <input type="hidden" name="token" value={form.values.token} />
        <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
        <PasswordField label={isFirstPassword ? 'Password' : 'New password'} autoComplete="new-password" autoFocus required {...form.field('password')} />
        <PasswordField label={isFirstPassword ? 'Confirm password' : 'Confirm new password'} autoComplete="new-password" required {...form.field('password_confirmation')} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>{isFirstPassword ? 'Set password' : 'Reset password'}</Button>
      </form>
      <p className="mt-8 text-center text-sm">
        <Link href={routePath(loginRoute(account))} className={`inline-flex items-center gap-1.5 ${textLink}`}>
          <Icon name="arrow-left" className="size-4" /> Back to sign in
        </Link>
      </p>
    </>
  );
}
