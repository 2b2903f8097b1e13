import { Link } from 'wouter';
import { routePath } from '../../../shared/routes';
import { forgotPasswordSchema } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { goToRoute, loginRoute } from '../../lib/navigation';
import { apiPrefix } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { AuthHeading, textLink } from './auth-heading';

export default function ForgotPassword({ account }: ScreenProps) {
  const form = useForm({
    initial: { email: '' },
    schema: forgotPasswordSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>(`${apiPrefix(account)}/forgot-password`, values, { account, form: true });
      notify.success(answer.message);
      goToRoute(loginRoute(account));
    },
  });

  return (
    <>
      <AuthHeading icon="mail" title="Forgot your password?"
        description="Enter the email address of your account and we will email you a link to choose a new password." />
      <form noValidate onSubmit={form.handleSubmit} className="space-y-5">
        <FormAlert message={form.formError} />
        <TextField label="Email" type="email" autoComplete="email" inputMode="email" autoFocus required placeholder="you@company.com" {...form.field('email')} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>Email password reset link</Button>
      </form>
      <p className="mt-8 text-center text-sm">
        <Link href={routePath(loginRoute(account))} className={`inline-flex items-center gap-1.5 ${textLink}`}>
          <Icon name="arrow-left" className="size-4" /> Back to sign in
        </Link>
      </p>
    </>
  );
}
