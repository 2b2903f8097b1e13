// Service requests beside the generic screens (issue 13): labels as chips in the list, and the
// request's comment thread under its details. Lives beside the resource screen because it may not
// import another feature (eslint import-direction).
import { useQuery } from '@tanstack/react-query';
import { queryClient, queryKeys } from '../../lib/query';
import { MAX_COMMENT_LENGTH, request, requestCommentSchema, type RequestComment } from '../../../shared/resources/request';
import { api } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { useForm } from '../../lib/form';
import { formatDateTime } from '../../lib/format';
import { currentPagePath, OutboxFullError, sendOrQueue } from '../../lib/outbox';
import { queuedActionWords } from '../../lib/outbox-actions';
import { notify } from '../../lib/toast';
import { formRefusal, QUEUED_MESSAGE } from '../../ui/resources/resource-api';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { TextAreaField } from '../../ui/textarea-field';
import type { Row } from '../../ui/resources/use-resource-query';

export function RequestLabels({ row }: { row: Row }) {
  const labels = Array.isArray(row.labels) ? (row.labels as string[]) : [];
  if (!labels.length) return <span className="text-slate-400">—</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {labels.map((label) => (
        <span key={label} className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 dark:bg-indigo-500/10 dark:text-indigo-200 dark:ring-indigo-500/30">
          {label}
        </span>
      ))}
    </span>
  );
}

/** The thread of a request: everyone who sees it reads and writes; its creator and assignee are told. */
export function RequestComments({ row }: { row: Row }) {
  const id = Number(row.id);
  // Part of the request's record: a comment posted or a live event about the request refetches it.
  const commentsKey = queryKeys.recordPart('request', id, 'comments');
  const { data: comments = null, isError: hasFailed } = useQuery({
    queryKey: commentsKey,
    queryFn: ({ signal }) => api.get<{ data: RequestComment[] }>(`/request/${id}/comments`, { silent: true, signal }).then((answer) => answer.data),
  }, queryClient);
  const setComments = (change: (current: RequestComment[] | null) => RequestComment[] | null) =>
    queryClient.setQueryData<RequestComment[] | null>(commentsKey, (current) => change(current ?? null) ?? current);

  const form = useForm({
    initial: { body: '' },
    schema: requestCommentSchema,
    onSubmit: async (values) => {
      const url = `/request/${id}/comments`;
      // Issue 26: offline the comment waits in the outbox (shown above the request until it is sent).
      const result = await sendOrQueue({ method: 'POST', url, body: values, label: queuedActionWords(request, 'comment', { title: row.title, body: values.body }), resource: 'request', recordId: id, editPath: currentPagePath(), isFixedHere: true },
        (headers) => api.post<{ data: RequestComment; message: string }>(url, values, { form: true, headers }))
        .catch((error: unknown) => { throw error instanceof OutboxFullError ? formRefusal(error) : error; });
      form.reset();
      if (result.queued) { notify.info(QUEUED_MESSAGE); return; }
      setComments((current) => [...(current ?? []), result.answer.data]);
      notify.success(result.answer.message);
    },
  });
  const guard = useDirtyGuard(form.form.formState.isDirty);

  return (
    <Card className="mt-6">
      <CardHeader title="Comments" description="The conversation about this request. Its creator and assignee are told of each comment." />
      <div className="px-5 py-4">
        {!comments && !hasFailed && (
          <div role="status" aria-label="Loading comments" className="space-y-3">
            <Skeleton className="h-4 w-40" /><Skeleton className="h-10" />
          </div>
        )}
        {hasFailed && !comments && <p className="text-sm text-slate-500 dark:text-slate-400">The comments could not be loaded.</p>}
        {comments && comments.length === 0 && (
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Icon name="inbox" className="size-4" aria-hidden="true" />No comments yet.
          </p>
        )}
        {comments && comments.length > 0 && (
          <ol className="space-y-4" aria-label="Comments">
            {comments.map((comment) => (
              <li key={comment.id} className="rounded-lg bg-slate-50 px-4 py-3 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/60 dark:ring-slate-700">
                <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="font-medium text-slate-900 dark:text-white">{comment.author?.name ?? 'A former user'}</span>
                  <time dateTime={comment.created_at} className="text-xs text-slate-500 dark:text-slate-400">{formatDateTime(comment.created_at)}</time>
                </p>
                <p className="mt-1 text-sm whitespace-pre-wrap break-words text-slate-700 dark:text-slate-200">{comment.body}</p>
              </li>
            ))}
          </ol>
        )}
        <form onSubmit={form.handleSubmit} noValidate className="mt-5 space-y-3" aria-label="New comment">
          <FormAlert message={form.formError} />
          <TextAreaField name="body" label="Add a comment" value={form.values.body} rows={3} maxLength={MAX_COMMENT_LENGTH} showCount errors={form.errors.body}
            onChange={(event) => form.setValue('body', event.target.value)} placeholder="Write an update or a question" />
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.isSubmitting}><Icon name="mail" className="size-4" aria-hidden="true" />Post comment</Button>
          </div>
        </form>
        {guard.prompt}
      </div>
    </Card>
  );
}
