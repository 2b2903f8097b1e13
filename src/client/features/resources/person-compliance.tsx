// A person's compliance on their show screen (issue 10): one badge by spec §5's expiry rule (the server
// applies it in the firm's time zone), their own documents and their assignments.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { documentAssignmentWorkflow } from '../../../shared/resources/document-assignment';
import { ownDocumentTypeOptions } from '../../../shared/resources/document';
import { routePath } from '../../../shared/routes';
import { complianceBadges } from '../../../shared/rules';
import type { PersonComplianceView } from '../../../shared/schemas/compliance';
import { api, isApiError } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { useCan } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonList } from '../../ui/loading';

/** Who may see someone else's compliance (the server checks the same). */
export const PERSON_COMPLIANCE_PERMISSION = 'can-view-document-repository|can-view-document-assign-history';

const typeLabel = (value: string) => ownDocumentTypeOptions.find((o) => o.value === value)?.label ?? value;
const isPast = (date: string | null, today: string) => !!date && date <= today;

export function PersonCompliance({ userId }: { userId: number }) {
  const can = useCan('app');
  const isAllowed = can(PERSON_COMPLIANCE_PERMISSION);
  const canOpenHistory = can('can-view-document-assign-history');

  // A document or an assignment saved here refetches it (query.ts EXTRA_COUNTS).
  const { data = null, error: failure } = useQuery({
    queryKey: queryKeys.screen('person-compliance', userId),
    queryFn: ({ signal }) => api.get<{ data: PersonComplianceView }>(`/compliance/${userId}`, { silent: true, signal }).then((answer) => answer.data),
    enabled: isAllowed,
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'Compliance could not be loaded.') : null;

  if (!isAllowed) return null;
  const cell = 'px-5 py-2.5 text-sm';
  return (
    <section aria-label="Compliance" className="mt-6">
      <Card>
        <CardHeader title="Compliance" description="Expired when any document's expiry date is today or earlier."
          actions={data && <Badge tone={complianceBadges[data.status].tone}><span data-testid="compliance-badge">{complianceBadges[data.status].label}</span></Badge>} />
        {error && <EmptyState icon="alert" title={error} />}
        {!error && !data && <div className="p-5"><SkeletonList rows={2} /></div>}
        {data && !data.documents.length && !data.assignments.length && (
          <EmptyState icon="inbox" title="Nothing assigned yet." description="This person holds no documents and has none assigned, so there is nothing to expire." />
        )}
        {data && data.documents.length > 0 && (
          <div className="overflow-x-auto border-t border-slate-200 dark:border-slate-800">
            <table className="w-full text-left">
              <caption className="px-5 pt-3 text-left text-sm font-semibold text-slate-900 dark:text-white">Own documents</caption>
              <thead><tr className="text-xs text-slate-500 uppercase dark:text-slate-400"><th className={cell}>Title</th><th className={cell}>Type</th><th className={cell}>Expiry</th></tr></thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {data.documents.map((doc) => (
                  <tr key={doc.id}>
                    <td className={cx(cell, 'text-slate-900 dark:text-slate-100')}>{doc.title}</td>
                    <td className={cx(cell, 'text-slate-600 dark:text-slate-300')}>{typeLabel(doc.document_type)}</td>
                    <td className={cx(cell, 'whitespace-nowrap tabular-nums', isPast(doc.expiry_date, data.today) ? 'font-medium text-rose-600 dark:text-rose-400' : 'text-slate-600 dark:text-slate-300')}>{doc.expiry_date ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data && data.assignments.length > 0 && (
          <div className="overflow-x-auto border-t border-slate-200 dark:border-slate-800">
            <table className="w-full text-left">
              <caption className="px-5 pt-3 text-left text-sm font-semibold text-slate-900 dark:text-white">Assigned documents</caption>
              <thead><tr className="text-xs text-slate-500 uppercase dark:text-slate-400"><th className={cell}>Document</th><th className={cell}>Status</th><th className={cell}>Due</th><th className={cell}>Expiry</th></tr></thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {data.assignments.map((item) => {
                  const state = documentAssignmentWorkflow.states[item.status];
                  return (
                    <tr key={item.id}>
                      <td className={cx(cell, 'text-slate-900 dark:text-slate-100')}>
                        {canOpenHistory
                          ? <Link href={routePath('document-assign-history.show', { id: item.id })} className={cx('rounded text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>{item.document_title}</Link>
                          : item.document_title}
                      </td>
                      <td className={cell}><Badge tone={state?.tone ?? 'gray'}>{state?.label ?? item.status}</Badge></td>
                      <td className={cx(cell, 'whitespace-nowrap tabular-nums text-slate-600 dark:text-slate-300')}>{item.due_date}</td>
                      <td className={cx(cell, 'whitespace-nowrap tabular-nums', isPast(item.expiry_date, data.today) ? 'font-medium text-rose-600 dark:text-rose-400' : 'text-slate-600 dark:text-slate-300')}>{item.expiry_date ?? '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </section>
  );
}
