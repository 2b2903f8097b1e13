// Issue 28 beside the generic screens: scorecards side by side (an interviewer's own form first;
// the others' only once it is in, as the server decides), the candidate's offer letters with the
// form that makes one, and a position's pipeline. Lives beside the resource screen because it may
// not import another feature (eslint import-direction).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { candidate } from '../../../shared/resources/candidate';
import { RATE_PERIODS, RATING_WORDS, RECOMMENDATIONS } from '../../../shared/resources/interview';
import type { InterviewScorecards, OfferLetterView, PositionPipeline, ScorecardView } from '../../../shared/schemas/interview';
import { routePath } from '../../../shared/routes';
import { api } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useForm } from '../../lib/form';
import { formatDateTime } from '../../lib/format';
import { queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { Badge, type Tone } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { TextAreaField } from '../../ui/textarea-field';
import { usePermissionCheck } from '../../ui/resources/resource-list';
import type { Row } from '../../ui/resources/use-resource-query';

const recommendationTone: Record<string, Tone> = { 'strong-yes': 'green', yes: 'green', no: 'red', 'strong-no': 'red' };
const recommendationLabel = (value: string) => RECOMMENDATIONS.find((r) => r.value === value)?.label ?? value;
const loading = (label: string) => (
  <div role="status" aria-label={label} className="space-y-3 px-5 py-4"><Skeleton className="h-4 w-40" /><Skeleton className="h-16" /></div>
);

// ---- Scorecards ----

function ScorecardCard({ card, criteria, isMine }: { card: ScorecardView; criteria: string[]; isMine?: boolean }) {
  return (
    <article className="rounded-lg bg-slate-50 p-4 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/60 dark:ring-slate-700" aria-label={`Scorecard of ${card.interviewer.name}`}>
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900 dark:text-white">{isMine ? 'Your scorecard' : card.interviewer.name}</h4>
        <Badge tone={recommendationTone[card.recommendation] ?? 'gray'}>{recommendationLabel(card.recommendation)}</Badge>
      </header>
      <dl className="mt-3 space-y-1.5 text-sm">
        {criteria.map((criterion) => {
          const rating = card.ratings[criterion];
          return (
            <div key={criterion} className="flex items-center justify-between gap-3">
              <dt className="text-slate-600 dark:text-slate-300">{criterion}</dt>
              <dd className="flex items-center gap-2">
                <span aria-hidden="true" className="flex gap-0.5">
                  {[1, 2, 3, 4, 5].map((n) => <span key={n} className={`size-2.5 rounded-full ${rating !== undefined && n <= rating ? 'bg-indigo-500 dark:bg-indigo-400' : 'bg-slate-200 dark:bg-slate-700'}`} />)}
                </span>
                <span className="w-20 text-right text-xs text-slate-600 tabular-nums dark:text-slate-300">{rating !== undefined ? `${rating} · ${RATING_WORDS[rating]}` : '—'}</span>
              </dd>
            </div>
          );
        })}
      </dl>
      {card.strengths && <p className="mt-3 text-sm text-slate-700 dark:text-slate-200"><span className="font-medium">Strengths: </span>{card.strengths}</p>}
      {card.concerns && <p className="mt-1 text-sm text-slate-700 dark:text-slate-200"><span className="font-medium">Concerns: </span>{card.concerns}</p>}
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">Submitted {formatDateTime(card.submitted_at)}</p>
    </article>
  );
}

function ScorecardForm({ item, onSaved }: { item: InterviewScorecards; onSaved: () => void }) {
  const initial: Record<string, string> = { recommendation: '', strengths: '', concerns: '' };
  item.criteria.forEach((_, index) => { initial[`rating_${index}`] = ''; });
  const form = useForm({
    initial,
    onSubmit: async (values) => {
      const ratings = Object.fromEntries(item.criteria.flatMap((criterion, index) => (values[`rating_${index}`] ? [[criterion, Number(values[`rating_${index}`])]] : [])));
      const answer = await api.post<{ message: string }>(`/interview/${item.interview.id}/scorecard`, {
        ratings, recommendation: values.recommendation || undefined, strengths: values.strengths || null, concerns: values.concerns || null,
      }, { form: true });
      notify.success(answer.message);
      onSaved();
    },
  });
  const ratingOptions = [1, 2, 3, 4, 5].map((n) => ({ value: n, label: `${n} · ${RATING_WORDS[n]}` }));
  return (
    <form onSubmit={form.handleSubmit} noValidate aria-label="Your scorecard" className="space-y-4 rounded-lg p-4 ring-1 ring-inset ring-indigo-200 dark:ring-indigo-500/40">
      <p className="text-sm font-semibold text-slate-900 dark:text-white">Your scorecard</p>
      <FormAlert message={form.formError ?? form.errors.ratings?.[0]} />
      <div className="grid gap-3 sm:grid-cols-2">
        {item.criteria.map((criterion, index) => (
          <SelectField key={criterion} name={`rating_${index}`} label={criterion} options={ratingOptions} required
            value={form.values[`rating_${index}`]} onChange={(event) => form.setValue(`rating_${index}`, event.target.value)} />
        ))}
      </div>
      <TextAreaField name="strengths" label="Strengths" rows={2} maxLength={2000} value={form.values.strengths} errors={form.errors.strengths}
        onChange={(event) => form.setValue('strengths', event.target.value)} />
      <TextAreaField name="concerns" label="Concerns" rows={2} maxLength={2000} value={form.values.concerns} errors={form.errors.concerns}
        onChange={(event) => form.setValue('concerns', event.target.value)} />
      <SelectField name="recommendation" label="Recommendation" required options={RECOMMENDATIONS} value={form.values.recommendation} errors={form.errors.recommendation}
        onChange={(event) => form.setValue('recommendation', event.target.value)} />
      <div className="flex justify-end"><Button type="submit" isLoading={form.isSubmitting}>Submit scorecard</Button></div>
    </form>
  );
}

/** One interview's scorecards: the caller's form or card, then the others' side by side (or why they are hidden). */
function InterviewScorecardsBlock({ item, onSaved, isTitled }: { item: InterviewScorecards; onSaved: () => void; isTitled?: boolean }) {
  const others = item.scorecards ?? [];
  return (
    <div className="space-y-4">
      {isTitled && (
        <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
          <Link href={routePath('interview.show', { id: item.interview.id })} className="underline decoration-slate-300 underline-offset-2 hover:decoration-indigo-500">
            {item.interview.stage}, {item.interview.scheduled_on} at {item.interview.start_time}
          </Link>
          {item.interview.status === 'cancelled' && <Badge tone="red">Cancelled</Badge>}
        </h3>
      )}
      {item.can_submit && <ScorecardForm item={item} onSaved={onSaved} />}
      {item.scorecards === null && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Icon name="lock" className="size-4" aria-hidden="true" />
          {item.submitted_count === 0 ? 'No scorecards yet. ' : item.submitted_count === 1 ? '1 interviewer has submitted. ' : `${item.submitted_count} interviewers have submitted. `}
          You read the others&apos; scorecards once you submit yours.
        </p>
      )}
      {(item.mine || others.length > 0) && (
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {item.mine && <ScorecardCard card={item.mine} criteria={item.criteria} isMine />}
          {others.map((card) => <ScorecardCard key={card.id} card={card} criteria={item.criteria} />)}
        </div>
      )}
      {item.scorecards !== null && !item.mine && others.length === 0 && !item.can_submit && (
        <p className="text-sm text-slate-500 dark:text-slate-400">No scorecards yet: the interviewers fill them in after the interview.</p>
      )}
    </div>
  );
}

function useScorecards(path: string, resource: string, id: number) {
  const key = queryKeys.recordPart(resource, id, 'scorecards');
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ data: InterviewScorecards[] }>(path, { silent: true, signal }).then((a) => a.data) }, queryClient);
  return { ...query, refresh: () => void queryClient.invalidateQueries({ queryKey: key }) };
}

/** The interview's page: the caller's scorecard and, as allowed, the others'. */
export function InterviewScorecardsSection({ row }: { row: Row }) {
  const id = Number(row.id);
  const { data, isError, refresh } = useScorecards(`/interview/${id}/scorecards`, 'interview', id);
  return (
    <Card className="mt-6">
      <CardHeader title="Scorecards" description="Each interviewer rates the candidate by the position's criteria. Interviewers read the others' scorecards after submitting their own." />
      {!data && !isError && loading('Loading scorecards')}
      {isError && <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">The scorecards could not be loaded.</p>}
      {data?.[0] && <div className="px-5 py-4"><InterviewScorecardsBlock item={data[0]} onSaved={refresh} /></div>}
    </Card>
  );
}

function CandidateScorecards({ id }: { id: number }) {
  const { data, isError, refresh } = useScorecards(`/candidate/${id}/scorecards`, 'candidate', id);
  return (
    <Card className="mt-6">
      <CardHeader title="Scorecards" description="The interviewers' scorecards side by side, interview by interview." />
      {!data && !isError && loading('Loading scorecards')}
      {isError && <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">The scorecards could not be loaded.</p>}
      {data && data.length === 0 && <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">No interviews yet. Schedule one under Interviews.</p>}
      {data && data.length > 0 && (
        <div className="divide-y divide-slate-200 dark:divide-slate-800">
          {data.map((item) => <div key={item.interview.id} className="px-5 py-4"><InterviewScorecardsBlock item={item} onSaved={refresh} isTitled /></div>)}
        </div>
      )}
    </Card>
  );
}

// ---- Offer letters ----

const offerTone: Record<string, Tone> = { sent: 'yellow', accepted: 'green', declined: 'red', withdrawn: 'gray' };
const offerStatus: Record<string, string> = { sent: 'Waiting for the candidate', accepted: 'Accepted', declined: 'Declined', withdrawn: 'Replaced by a newer offer' };

function OfferLetterForm({ candidateId, onMade }: { candidateId: number; onMade: (url: string) => void }) {
  const { data: templates } = useQuery({
    queryKey: queryKeys.options('offer-template'),
    queryFn: ({ signal }) => api.get<{ data: { id: number; label: string | null }[] }>('/offer-template/options', { silent: true, signal }).then((a) => a.data),
  }, queryClient);
  const form = useForm({
    initial: { template_id: '', start_date: '', rate: '', currency: 'GBP', rate_period: 'day' },
    onSubmit: async (values) => {
      const answer = await api.post<{ data: OfferLetterView & { url: string }; message: string }>(`/candidate/${candidateId}/offer-letters`, {
        template_id: values.template_id ? Number(values.template_id) : undefined, start_date: values.start_date || undefined,
        rate: values.rate ? Number(values.rate) : undefined, currency: values.currency.toUpperCase(), rate_period: values.rate_period,
      }, { form: true });
      notify.success(answer.message);
      form.reset();
      onMade(answer.data.url);
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate aria-label="New offer letter" className="space-y-3">
      <FormAlert message={form.formError} />
      <SelectField name="template_id" label="Template" required options={(templates ?? []).map((t) => ({ value: t.id, label: t.label ?? `#${t.id}` }))}
        value={form.values.template_id} errors={form.errors.template_id} onChange={(event) => form.setValue('template_id', event.target.value)}
        hint={templates && templates.length === 0 ? 'Add a template under Offer Letter Templates first.' : undefined} />
      <TextField {...form.field('start_date')} type="date" label="Start date" required />
      <div className="grid grid-cols-[1fr_6rem] gap-3">
        <TextField {...form.field('rate')} type="number" inputMode="decimal" min="0" step="0.01" label="Rate" required />
        <TextField {...form.field('currency')} label="Currency" maxLength={3} required />
      </div>
      <SelectField name="rate_period" label="Per" options={RATE_PERIODS} value={form.values.rate_period} errors={form.errors.rate_period}
        onChange={(event) => form.setValue('rate_period', event.target.value)} />
      <Button type="submit" className="w-full" isLoading={form.isSubmitting}><Icon name="mail" className="size-4" aria-hidden="true" />Make and send the offer</Button>
    </form>
  );
}

function CandidateOffers({ row }: { row: Row }) {
  const can = usePermissionCheck('app');
  const id = Number(row.id);
  const key = queryKeys.recordPart('candidate', id, 'offer-letters');
  const { data, isError } = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ data: OfferLetterView[] }>(`/candidate/${id}/offer-letters`, { silent: true, signal }).then((a) => a.data) }, queryClient);
  const [link, setLink] = useState<string | null>(null);
  const isOfferStage = row.stage === 'Offer Letter Review';
  const mayOffer = isOfferStage && can(candidate.permissions.edit!);
  if (!isOfferStage && data?.length === 0) return null;
  const download = async (offer: OfferLetterView) => {
    const blob = await api.get<Blob>(`/offer-letter/${offer.id}/pdf`, { responseType: 'blob' });
    saveBlob(blob, `Offer letter ${String(row.name ?? '')} ${offer.created_at.slice(0, 10)}.pdf`);
  };
  return (
    <Card className="mt-6">
      <CardHeader title="Offer letter" description="Made from the firm's template as a PDF; the candidate accepts or declines it through the link they are mailed." />
      <div className="grid gap-6 px-5 py-4 lg:grid-cols-2">
        <div className="space-y-3">
          {!data && !isError && <Skeleton className="h-16" />}
          {data?.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No offer letter yet.</p>}
          {data && data.length > 0 && (
            <ul aria-label="Offer letters" className="space-y-3">
              {data.map((offer) => (
                <li key={offer.id} className="rounded-lg p-3 text-sm ring-1 ring-inset ring-slate-200 dark:ring-slate-700">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-slate-900 dark:text-white">{offer.rate_text}, from {offer.start_date}</span>
                    <Badge tone={offerTone[offer.status] ?? 'gray'}>{offerStatus[offer.status] ?? offer.status}</Badge>
                  </div>
                  {offer.signed_name && (
                    <p className="mt-1 text-slate-600 dark:text-slate-300">
                      Signed “{offer.signed_name}” on {offer.responded_at ? formatDateTime(offer.responded_at) : ''}{offer.responded_ip ? ` from ${offer.responded_ip}` : ''}.
                      {offer.decline_reason ? ` Reason: ${offer.decline_reason}` : ''}
                    </p>
                  )}
                  <Button variant="secondary" size="sm" className="mt-2" onClick={() => void download(offer)}>
                    <Icon name="download" className="size-4" aria-hidden="true" />PDF
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {link && (
            <p className="rounded-lg bg-emerald-50 p-3 text-sm break-all text-emerald-800 ring-1 ring-inset ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-500/30">
              Mailed to the candidate. Their link, shown this once: <a href={link} className="underline" data-offer-link>{link}</a>
            </p>
          )}
        </div>
        {mayOffer && <OfferLetterForm candidateId={id} onMade={(url) => { setLink(url); void queryClient.invalidateQueries({ queryKey: key }); }} />}
      </div>
    </Card>
  );
}

/** Below a candidate: their interviews' scorecards and, at Offer Letter Review, the offer letter. */
export function CandidateInterviewSections({ row }: { row: Row }) {
  return (
    <>
      <CandidateScorecards id={Number(row.id)} />
      <CandidateOffers row={row} />
    </>
  );
}

// ---- A position's pipeline ----

export function PositionPipelineSection({ row }: { row: Row }) {
  const can = usePermissionCheck('app');
  const id = Number(row.id);
  const mayRead = can(candidate.permissions.view);
  const { data, isError } = useQuery({
    queryKey: queryKeys.recordPart('position', id, 'pipeline'), enabled: mayRead,
    queryFn: ({ signal }) => api.get<{ data: PositionPipeline }>(`/position/${id}/pipeline`, { silent: true, signal }).then((a) => a.data),
  }, queryClient);
  if (!mayRead) return null;
  const most = Math.max(1, ...(data?.stages.map((s) => s.count) ?? []));
  return (
    <Card className="mt-6">
      <CardHeader title="Pipeline" description={data ? `Open for ${data.days_open === 1 ? '1 day' : `${data.days_open} days`}. Candidates per stage, and how long each has been in theirs.` : 'Candidates per stage.'} />
      {!data && !isError && loading('Loading the pipeline')}
      {isError && <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">The pipeline could not be loaded.</p>}
      {data && (
        <div className="grid gap-6 px-5 py-4 lg:grid-cols-2">
          <ul aria-label="Candidates per stage" className="space-y-2">
            {data.stages.map((s) => (
              <li key={s.stage} className="grid grid-cols-[minmax(0,9rem)_1fr_2rem] items-center gap-3 text-sm">
                <span className="text-slate-700 dark:text-slate-200">{s.stage}</span>
                <span className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
                  <span className={`block h-full rounded-full ${s.stage === 'Rejected' ? 'bg-rose-400' : s.stage === 'Onboarding' ? 'bg-emerald-500' : 'bg-indigo-500 dark:bg-indigo-400'}`}
                    style={{ width: `${s.count ? Math.max(4, Math.round((s.count / most) * 100)) : 0}%` }} />
                </span>
                <span className="text-right font-medium text-slate-900 tabular-nums dark:text-white">{s.count}</span>
              </li>
            ))}
          </ul>
          {data.candidates.length === 0
            ? <p className="text-sm text-slate-500 dark:text-slate-400">No candidates for this position yet.</p>
            : (
              <ul aria-label="Time in stage" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
                {data.candidates.map((c) => (
                  <li key={c.id} className="flex items-center justify-between gap-3 py-2">
                    <Link href={routePath('candidate.show', { id: c.id })} className="font-medium text-slate-900 underline decoration-slate-300 underline-offset-2 hover:decoration-indigo-500 dark:text-white">{c.name}</Link>
                    <span className="text-right text-slate-600 dark:text-slate-300">{c.stage} · {c.days_in_stage === 0 ? 'since today' : c.days_in_stage === 1 ? '1 day' : `${c.days_in_stage} days`}</span>
                  </li>
                ))}
              </ul>
            )}
        </div>
      )}
    </Card>
  );
}
