// The changed fields of one audit entry (issue 20): each field's label with its old and new value as
// people read them then; a secret only as changed. Shared by a record's History tab and the admin's
// audit screen.
import type { AuditEntryView } from '../../../shared/schemas/audit';
import { cx } from '../cx';
import { Icon } from '../icons';

const EMPTY = 'empty';

export function AuditChanges({ entry, className }: { entry: AuditEntryView; className?: string }) {
  if (!entry.changes.length) return null;
  // A creation lists what was filled in; a deletion what was there.
  const isSingleSided = entry.action === 'create' || entry.action === 'delete';
  return (
    <dl className={cx('grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs', className)}>
      {entry.changes.map((change) => (
        <div key={change.field} className="contents">
          <dt className="font-medium text-slate-500 dark:text-slate-400">{change.label}</dt>
          <dd className="min-w-0 break-words text-slate-700 dark:text-slate-200">
            {change.is_secret ? <span className="italic">changed (never shown)</span>
              : isSingleSided ? (entry.action === 'create' ? change.new_text : change.old_text) ?? <span className="text-slate-400">{EMPTY}</span>
                : (
                  <span className="inline-flex flex-wrap items-center gap-1">
                    <span className={cx(change.old_text ? 'text-slate-500 line-through decoration-slate-400/70 dark:text-slate-400' : 'text-slate-400')}>{change.old_text ?? EMPTY}</span>
                    <Icon name="arrow-right" className="size-3.5 shrink-0 text-slate-400" />
                    <span className="sr-only">to</span>
                    <span>{change.new_text ?? <span className="text-slate-400">{EMPTY}</span>}</span>
                  </span>
                )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
