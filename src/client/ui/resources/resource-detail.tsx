// The detail page generated from a definition: every field shown on it, references as their labels
// (linked when the viewer may open them), lists with the chosen answer marked, edit and delete.
// A workflow adds its state and step, the caller's transitions and the history; file fields list
// their attachments with download and preview. The definition's `related` lists follow the record.
import { useState, type ReactNode } from 'react';
import { useFocusAfterChange } from '../focus-after-change';
import { Link, useLocation } from 'wouter';
import { abilitiesOf, actionWords, type FieldDefinition, type ResourceDefinition } from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';
import type { AccountType } from '../../../shared/routes';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { RichText } from '../../ui/rich-text-editor';
import { AttachmentList } from './file-field';
import { deleteRecord, useResourceRecord } from './resource-api';
import { ResourceList, usePermissionCheck, type ResourceCustomization } from './resource-list';
import {
  attachmentsOf, availableTransitions, currentArea, displayText, displayValue, EMPTY, relatedOptions, resourcePath, workflowFor,
} from './resource-values';
import { RecordHistory, TransitionButtons, useTransitionRunner, WorkflowStatus } from './workflow';
import { QueuedItems } from './queued-items';
import { useOfflineUnavailable } from '../../lib/outbox-actions';
import type { Row } from './use-resource-query';

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={cx('mb-3 inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-500 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white', focusRing)}>
      <Icon name="arrow-left" className="size-4" />{children}
    </Link>
  );
}

/** Why a record cannot be shown while offline; it loads by itself once the connection is back. */
export const offlineRecordText = (definition: ResourceDefinition) =>
  `This ${actionWords(definition).record} has not been opened on this device while online, so no copy is saved here. It will load when you are back online.`;

/** `relatedCustomizations`: the screens' customizations by resource name, for the related lists below the record (an onboarding's checklist cells). */
export function ResourceDetail({ definition, account, id, customization = {}, relatedCustomizations }: {
  definition: ResourceDefinition; account: AccountType; id: string; customization?: ResourceCustomization; relatedCustomizations?: Readonly<Record<string, ResourceCustomization>>;
}) {
  const can = usePermissionCheck(account);
  const [, navigate] = useLocation();
  const { row, error, isUnreachable } = useResourceRecord(definition, id, { isLive: true });
  const [isConfirming, setConfirming] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  // Bumped after every transition (done or refused): the history refetches with the record.
  const [historyVersion, setHistoryVersion] = useState(0);
  // runTransition shows the answer's row at once and invalidates the record, its lists and summaries.
  const transitions = useTransitionRunner(definition, () => setHistoryVersion((v) => v + 1));
  // After a decision focus goes to the status, which now reads the new state.
  const statusRef = useFocusAfterChange<HTMLElement>(historyVersion);
  const unavailable = useOfflineUnavailable(definition.name);
  const parentId = definition.parent && row ? (row[definition.parent.field] as number) : null;
  const indexPath = resourcePath(definition, 'index', { parentId });
  const back = indexPath && <BackLink href={indexPath}>Back to {actionWords(definition).records}</BackLink>;

  if (error) {
    // No answer at all is not a 404: offline, a record never opened on this device has no saved copy (issue 14).
    return <>{back}<Card>{isUnreachable
      ? <EmptyState icon="alert" title="Not available offline" description={offlineRecordText(definition)} />
      : <EmptyState icon="alert" title={error} description={`The ${actionWords(definition).record} may have been deleted.`} />}</Card></>;
  }
  if (!row) {
    return (
      <div role="status" aria-label="Loading">
        <Skeleton className="mb-6 h-8 w-64" />
        <Card className="space-y-4 p-5">{Array.from({ length: 5 }, (_, i) => <Skeleton key={i} className="h-4 w-2/3" />)}</Card>
      </div>
    );
  }

  const title = customization.recordTitle?.(row)
    || displayText(definition.fields[definition.titleKey], definition.titleKey, row, 'list', workflowFor(definition, definition.titleKey)) || `${definition.label} #${row.id}`;
  const workflow = definition.workflow;
  const editPath = resourcePath(definition, 'edit', { id: row.id, parentId });
  const onDelete = async () => {
    setDeleting(true);
    const isDeleted = await deleteRecord(definition, row.id, row);
    setDeleting(false);
    setConfirming(false);
    if (isDeleted && indexPath) navigate(indexPath);
  };
  // A workflow's status has its own card above the fields.
  const fields = Object.entries(definition.fields).filter(([key, field]) => field.isInDetail !== false && key !== workflow?.field);

  return (
    <>
      {back}
      <PageHeader title={title} description={definition.label}
        actions={(
          <>
            {abilitiesOf(row).delete && (
              <Button variant="secondary" onClick={() => setConfirming(true)} className="text-rose-600 dark:text-rose-400"><Icon name="trash" className="size-4" />Delete</Button>
            )}
            {editPath && abilitiesOf(row).update && (
              <Link href={editPath} className={cx('inline-flex h-10 items-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
                <Icon name="pencil" className="size-4" />Edit
              </Link>
            )}
          </>
        )} />
      <QueuedItems definition={definition} account={account} recordId={row.id} />
      {workflow && (
        <Card className="mb-6">
          <section ref={statusRef} tabIndex={-1} aria-labelledby={`status-${definition.name}-${row.id}`}
            className="flex flex-col gap-4 px-5 py-4 outline-none sm:flex-row sm:items-center sm:justify-between">
            <div>
              <h2 id={`status-${definition.name}-${row.id}`} className="sr-only">Status</h2>
              <WorkflowStatus workflow={workflow} value={row[workflow.field]} note={typeof row.status_note === 'string' ? row.status_note : null} />
            </div>
            <TransitionButtons transitions={availableTransitions(row)} disabled={transitions.isOpen} unavailable={unavailable}
              onStart={(transition) => transitions.start(transition, [row], title)} />
          </section>
        </Card>
      )}
      <div className={cx(workflow && 'grid items-start gap-6 lg:grid-cols-3')}>
        <Card className={cx(workflow && 'lg:col-span-2')}>
          <dl className="divide-y divide-slate-200 dark:divide-slate-800">
            {fields.map(([key, field]) => (
              <div key={key} className="grid gap-1 px-5 py-3.5 sm:grid-cols-3 sm:gap-4">
                <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{field.label}</dt>
                <dd className="text-sm break-words text-slate-900 sm:col-span-2 dark:text-slate-100">
                  {customization.cells?.[key]?.(row) ?? <DetailValue definition={definition} fieldKey={key} field={field} row={row} can={can} />}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        {workflow && <RecordHistory definition={definition} id={row.id} reloadKey={`${historyVersion}:${String(row[workflow.field])}:${String(row.updated_at ?? '')}`} />}
      </div>
      {/* Without a workflow, the History tab is its edits (the portal reads none: issue 20). */}
      {!workflow && currentArea() !== 'partner' && <RecordHistory definition={definition} id={row.id} reloadKey={String(row.updated_at ?? '')} className="mt-6" />}
      {customization.detailSection?.(row)}
      <RelatedLists definition={definition} account={account} id={row.id} can={can} customizations={relatedCustomizations} />
      {transitions.dialog}
      <ConfirmDialog open={isConfirming} title={actionWords(definition).remove} message={`“${title}” will be deleted. This cannot be undone.`}
        confirmLabel="Delete" isLoading={isDeleting} onConfirm={onDelete} onClose={() => { if (!isDeleting) setConfirming(false); }} />
    </>
  );
}

/**
 * The definition's `related` lists (a partner's logins and engineers, a client's positions): each the
 * other resource's own list filtered by its field pointing here, for those who may view it.
 */
export function RelatedLists({ definition, account, id, can, customizations }: {
  definition: ResourceDefinition; account: AccountType; id: number; can: (p?: string) => boolean; customizations?: Readonly<Record<string, ResourceCustomization>>;
}) {
  const lists = (definition.related ?? []).flatMap((related) => {
    const other = resourceByName[related.resource];
    return other && can(other.permissions.view) ? [{ ...related, other }] : [];
  });
  return lists.map(({ other, field, title }) => (
    <section key={`${other.name}:${field}`} aria-label={title ?? other.pluralLabel}>
      <ResourceList definition={other} account={account} title={title} embedded={{ field, id }} customization={customizations?.[other.name]}
        parentId={other.parent?.field === field ? String(id) : null} />
    </section>
  ));
}

function DetailValue({ definition, fieldKey: key, field, row, can }: { definition: ResourceDefinition; fieldKey: string; field: FieldDefinition; row: Row; can: (p?: string) => boolean }) {
  if (field.input === 'file') return <AttachmentList definition={definition} recordId={row.id} files={attachmentsOf(row, key)} />;
  if (field.input === 'reference' && field.reference) {
    const [related] = relatedOptions(field, row);
    if (!related) return <span className="text-slate-400">{EMPTY}</span>;
    const target = resourceByName[field.reference.resource];
    const href = target && can(target.permissions.view) ? resourcePath(target, 'show', { id: related.id }) : null;
    return href ? <Link href={href} className={cx('rounded text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>{related.label}</Link> : <>{related.label}</>;
  }
  if (field.input === 'list') {
    const list = Array.isArray(row[key]) ? (row[key] as unknown[]).map(String) : [];
    if (!list.length) return <span className="text-slate-400">{EMPTY}</span>;
    // A select fed by this list (the correct answer) marks its chosen item.
    const chooserKey = Object.entries(definition.fields).find(([, other]) => other.optionsFrom === key)?.[0];
    const chosen = chooserKey ? String(row[chooserKey] ?? '') : null;
    return (
      <ol className="list-inside list-decimal space-y-1">
        {list.map((item, index) => (
          <li key={index}>
            {item}
            {chosen === item && <Badge tone="green" className="ml-2">{definition.fields[chooserKey!].label}</Badge>}
          </li>
        ))}
      </ol>
    );
  }
  if (field.input === 'richtext') {
    const html = String(row[key] ?? '');
    return html ? <RichText html={html} /> : <span className="text-slate-400">{EMPTY}</span>;
  }
  if (field.input === 'textarea') {
    const text = displayText(field, key, row, 'detail');
    return text ? <span className="whitespace-pre-line">{text}</span> : <span className="text-slate-400">{EMPTY}</span>;
  }
  return <>{displayValue(field, key, row, 'detail', workflowFor(definition, key))}</>;
}
