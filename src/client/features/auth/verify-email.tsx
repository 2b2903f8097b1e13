import { useState } from 'react';
import { ALREADY_VERIFIED, VERIFICATION_LINK_SENT } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { goToRoute, homeRoute } from '../../lib/navigation';
import { apiPrefix, logout } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { AuthHeading } from './auth-heading';

export const VERIFICATION_SENT_EVENT = 'verification-sent';

export default function VerifyEmail({ account }: ScreenProps) {
  const [isSending, setSending] = useState(false);
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const resend = async () => {
    setSending(true);
    try {
      const answer = await api.post<{ message: string; status: string }>(`${apiPrefix(account)}/email/verification-notification`, undefined, { account });
      if (answer.status === ALREADY_VERIFIED) {
        notify.success(answer.message);
        goToRoute(homeRoute(account), undefined, { replace: true });
      } else if (answer.status === VERIFICATION_LINK_SENT) {
        setSentMessage(answer.message);
        notify.success(answer.message);
        window.dispatchEvent(new CustomEvent(VERIFICATION_SENT_EVENT));
      }
    } catch {
      /* reported by the API wrapper */
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <AuthHeading icon="mail" title="Verify your email"
        description="Before getting started, please verify your email address by clicking the link we emailed to you. If you did not receive it, we will gladly send another." />
      <div className="space-y-5">
        <FormAlert tone="success" message={sentMessage} />
        <Button className="w-full" onClick={resend} isLoading={isSending}>Resend Verification Email</Button>
        <div className="text-center">
          <Button variant="ghost" size="sm" onClick={() => logout(account)}>Log Out</Button>
        </div>
      </div>
    </>
  );
}
