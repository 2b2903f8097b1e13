// The detail page generated from a definition: every field shown on it, references as their labels
// (linked when the viewer may open them), lists with the chosen answer marked, edit and delete.
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { FieldDefinition, ResourceDefinition } from '../../../shared/resources/define';
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
import { deleteRecord, useResourceRecord } from './resource-api';
import { usePermissionCheck, type ResourceCustomization } from './resource-list';
import { displayText, displayValue, EMPTY, relatedOptions, resourcePath } from './resource-values';
import type { Row } from './use-resource-query';

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={cx('mb-3 inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-500 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white', focusRing)}>
      <Icon name="arrow-left" className="size-4" />{children}
    </Link>
  );
}

export function ResourceDetail({ definition, account, id, customization = {} }: { definition: ResourceDefinition; account: AccountType; id: string; customization?: ResourceCustomization }) {
  const can = usePermissionCheck(account);
  const [, navigate] = useLocation();
  const { row, error } = useResourceRecord(definition, id);
  const [isConfirming, setConfirming] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const parentId = definition.parent && row ? (row[definition.parent.field] as number) : null;
  const indexPath = resourcePath(definition, 'index', { parentId });
  const back = indexPath && <BackLink href={indexPath}>Back to {definition.pluralLabel.toLowerCase()}</BackLink>;

  if (error) {
    return <>{back}<Card><EmptyState icon="alert" title={error} description={`The ${definition.label.toLowerCase()} may have been deleted.`} /></Card></>;
  }
  if (!row) {
    return (
      <div role="status" aria-label="Loading">
        <Skeleton className="mb-6 h-8 w-64" />
        <Card className="space-y-4 p-5">{Array.from({ length: 5 }, (_, i) => <Skeleton key={i} className="h-4 w-2/3" />)}</Card>
      </div>
    );
  }

  const title = displayText(definition.fields[definition.titleKey], definition.titleKey, row) || `${definition.label} #${row.id}`;
  const editPath = resourcePath(definition, 'edit', { id: row.id, parentId });
  const onDelete = async () => {
    setDeleting(true);
    const isDeleted = await deleteRecord(definition, row.id);
    setDeleting(false);
    setConfirming(false);
    if (isDeleted && indexPath) navigate(indexPath);
  };
  const fields = Object.entries(definition.fields).filter(([, field]) => field.isInDetail !== false);

  return (
    <>
      {back}
      <PageHeader title={title} description={definition.label}
        actions={(
          <>
            {can(definition.permissions.delete) && !definition.deleteRefusal?.(row) && (
              <Button variant="secondary" onClick={() => setConfirming(true)} className="text-rose-600 dark:text-rose-400"><Icon name="trash" className="size-4" />Delete</Button>
            )}
            {editPath && can(definition.permissions.edit) && (
              <Link href={editPath} className={cx('inline-flex h-10 items-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
                <Icon name="pencil" className="size-4" />Edit
              </Link>
            )}
          </>
        )} />
      <Card>
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
      <ConfirmDialog open={isConfirming} title={`Delete ${definition.label.toLowerCase()}?`} message={`“${title}” will be deleted. This cannot be undone.`}
        confirmLabel="Delete" isLoading={isDeleting} onConfirm={onDelete} onClose={() => { if (!isDeleting) setConfirming(false); }} />
    </>
  );
}

function DetailValue({ definition, fieldKey: key, field, row, can }: { definition: ResourceDefinition; fieldKey: string; field: FieldDefinition; row: Row; can: (p?: string) => boolean }) {
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
  if (field.input === 'textarea') {
    const text = displayText(field, key, row, 'detail');
    return text ? <span className="whitespace-pre-line">{text}</span> : <span className="text-slate-400">{EMPTY}</span>;
  }
  return <>{displayValue(field, key, row, 'detail')}</>;
}
