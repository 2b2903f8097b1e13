// The candidate's offer letter (`/offer-letter?token=…`, issue 28): opened by the link the recruiter's
// offer mailed, without an account. The candidate reads the letter (or its PDF) and accepts or declines
// it with their typed name as signature; the link answers once, then shows what was answered.
import { useCallback, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { PublicOfferLetter } from '../../../shared/schemas/interview';
import { api, isApiError } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useForm } from '../../lib/form';
import { formatDateTime } from '../../lib/format';
import { PublicNotice, PublicPage, PublicPageLoading } from '../../layout/public-page';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { TextAreaField } from '../../ui/textarea-field';

type Stage = { kind: 'loading' } | { kind: 'problem'; message: string } | { kind: 'letter'; offer: PublicOfferLetter } | { kind: 'done'; message: string };

export default function OfferLetterPage(_props: ScreenProps) {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [stage, setStage] = useState<Stage>(() => (token ? { kind: 'loading' } : { kind: 'problem', message: 'This link is invalid or has expired.' }));
  const path = `/public/offer-letter/${encodeURIComponent(token)}`;

  useEffect(() => {
    if (!token) return;
    let active = true;
    api.get<{ data: PublicOfferLetter }>(path, { silent: true })
      .then((answer) => { if (active) setStage({ kind: 'letter', offer: answer.data }); })
      .catch((error: unknown) => {
        if (active) setStage({ kind: 'problem', message: isApiError(error) && error.status ? error.message : 'The letter could not be loaded. Check your connection and reload the page.' });
      });
    return () => { active = false; };
  }, [token, path]);

  return (
    <PublicPage>
      {stage.kind === 'loading' && <PublicPageLoading label="Loading the letter" />}
      {stage.kind === 'problem' && <PublicNotice icon="alert" title={stage.message} text="Ask the recruiter who sent it for a new link." />}
      {stage.kind === 'done' && <PublicNotice icon="check" title={stage.message} text="You can close this page." />}
      {stage.kind === 'letter' && <Letter path={path} offer={stage.offer} onDone={(message) => setStage({ kind: 'done', message })} />}
    </PublicPage>
  );
}

const answered: Record<string, string> = { accepted: 'You accepted this offer', declined: 'You declined this offer' };

function Letter({ path, offer, onDone }: { path: string; offer: PublicOfferLetter; onDone: (message: string) => void }) {
  const [answer, setAnswer] = useState<'accept' | 'decline'>('accept');
  const form = useForm({
    initial: { signed_name: '', reason: '' },
    onSubmit: async (values) => {
      const result = await api.post<{ message: string }>(`${path}/${answer}`, { signed_name: values.signed_name, reason: values.reason || null }, { form: true, silent: true });
      onDone(result.message);
    },
  });
  const download = useCallback(async () => {
    const blob = await api.get<Blob>(`${path}/pdf`, { responseType: 'blob' });
    saveBlob(blob, `Offer letter ${offer.candidate_name}.pdf`);
  }, [path, offer.candidate_name]);
  const isOpen = offer.status === 'sent';
  return (
    <article className="p-6 sm:p-8">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 pb-4 dark:border-slate-800">
        <div>
          <p className="text-sm text-slate-500 dark:text-slate-400">{offer.firm}</p>
          <h1 className="text-xl font-semibold text-slate-900 dark:text-white">Your offer for {offer.position}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{offer.rate_text}, starting {offer.start_date}</p>
        </div>
        <Button variant="secondary" onClick={() => void download()}><Icon name="download" className="size-4" aria-hidden="true" />PDF</Button>
      </header>
      <div className="mt-5 space-y-3 text-[15px] leading-relaxed text-slate-800 dark:text-slate-100">
        {offer.body.split(/\n\s*\n/).map((paragraph, index) => <p key={index} className="whitespace-pre-line">{paragraph}</p>)}
      </div>
      {!isOpen && (
        <p role="status" className="mt-6 rounded-lg bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-700">
          {answered[offer.status] ?? 'This offer is closed'}{offer.signed_name ? `, signed “${offer.signed_name}”` : ''}{offer.responded_at ? ` on ${formatDateTime(offer.responded_at)}` : ''}.
        </p>
      )}
      {isOpen && (
        <form onSubmit={form.handleSubmit} noValidate aria-label="Your answer" className="mt-6 space-y-4 border-t border-slate-200 pt-5 dark:border-slate-800">
          <FormAlert message={form.formError} />
          <fieldset>
            <legend className="text-sm font-medium text-slate-900 dark:text-white">Your answer</legend>
            <div className="mt-2 grid grid-cols-2 gap-2">
              {(['accept', 'decline'] as const).map((choice) => (
                <label key={choice} className={`flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset ${answer === choice ? 'bg-indigo-50 ring-indigo-400 dark:bg-indigo-500/10 dark:ring-indigo-400' : 'ring-slate-300 dark:ring-slate-700'} text-slate-800 dark:text-slate-100`}>
                  <input type="radio" name="answer" value={choice} checked={answer === choice} onChange={() => setAnswer(choice)} className="accent-indigo-600" />
                  {choice === 'accept' ? 'I accept this offer' : 'I decline this offer'}
                </label>
              ))}
            </div>
          </fieldset>
          {answer === 'decline' && (
            <TextAreaField name="reason" label="Reason (optional)" rows={2} maxLength={2000} value={form.values.reason} errors={form.errors.reason}
              onChange={(event) => form.setValue('reason', event.target.value)} />
          )}
          <TextField {...form.field('signed_name')} label="Your full name, as your signature" autoComplete="name" required
            hint={`Type it as the letter names you: ${offer.candidate_name}. The time and your network address are recorded with it.`} />
          <Button type="submit" className="w-full" variant={answer === 'decline' ? 'danger' : 'primary'} isLoading={form.isSubmitting}>
            {answer === 'accept' ? 'Sign and accept' : 'Sign and decline'}
          </Button>
        </form>
      )}
    </article>
  );
}
