// Issue 28: a partner firm's bank details, as the firm (partner portal profile) and finance (the firm's
// page) both read them: the account in force, a change waiting beside it (old and new), and the history.
import type { ReactNode } from 'react';
import { BANK_CHANGE_LABELS, type BankAccount, type BankChange, type BankChangeStatus } from '../../shared/resources/ikk-partner';
import { formatDateTime } from '../lib/format';
import { Badge, type Tone } from './badge';

const TONES: Record<BankChangeStatus, Tone> = { pending: 'amber', approved: 'green', rejected: 'red', withdrawn: 'gray' };

export function BankChangeBadge({ status }: { status: BankChangeStatus }) {
  return <Badge tone={TONES[status]}>{BANK_CHANGE_LABELS[status]}</Badge>;
}

/** IBANs read in groups of four, as printed on a statement. */
const grouped = (number: string) => (/^[A-Z]{2}\d{2}/.test(number) ? number.replace(/(.{4})/g, '$1 ').trim() : number);

/** One account: holder, number, bank code. */
export function BankAccountLines({ account, empty = 'None on record' }: { account: BankAccount | null; empty?: string }) {
  if (!account) return <p className="text-sm text-slate-500 dark:text-slate-400">{empty}</p>;
  return (
    <dl className="space-y-1 text-sm">
      <div><dt className="sr-only">Account holder</dt><dd className="font-medium text-slate-900 dark:text-white">{account.account_holder}</dd></div>
      <div><dt className="sr-only">IBAN or account number</dt><dd className="font-mono text-slate-700 tabular-nums dark:text-slate-200">{grouped(account.account_number)}</dd></div>
      {account.bank_code && <div><dt className="inline text-slate-500 dark:text-slate-400">Bank code </dt><dd className="inline font-mono text-slate-700 dark:text-slate-200">{account.bank_code}</dd></div>}
    </dl>
  );
}

/** The change waiting: old beside new, and who asked when. `actions` are finance's or the firm's buttons. */
export function PendingBankChange({ change, actions, note }: { change: BankChange; actions?: ReactNode; note: string }) {
  return (
    <section aria-label="Change waiting for finance" className="rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-500/40 dark:bg-amber-500/10">
      <div className="flex flex-wrap items-center gap-2">
        <BankChangeBadge status="pending" />
        <p className="text-sm text-slate-700 dark:text-slate-200">Asked by {change.requested_by} on {formatDateTime(change.created_at)}</p>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{note}</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div className="rounded-md bg-white p-3 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Old (in force)</h4>
          <BankAccountLines account={change.previous} />
        </div>
        <div className="rounded-md bg-white p-3 ring-1 ring-amber-300 dark:bg-slate-900 dark:ring-amber-500/50">
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-amber-700 uppercase dark:text-amber-300">New (asked for)</h4>
          <BankAccountLines account={change.requested} />
        </div>
      </div>
      {actions && <div className="mt-4 flex flex-wrap justify-end gap-2">{actions}</div>}
    </section>
  );
}

/** What became of each request, newest first. */
export function BankChangeHistory({ history }: { history: readonly BankChange[] }) {
  const decided = history.filter((change) => change.status !== 'pending');
  if (!decided.length) return null;
  return (
    <section aria-label="Bank details history">
      <h4 className="text-sm font-semibold text-slate-900 dark:text-white">History</h4>
      <ol className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
        {decided.map((change) => (
          <li key={change.id} className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:items-start sm:gap-3">
            <BankChangeBadge status={change.status} />
            <div className="min-w-0 flex-1 text-slate-700 dark:text-slate-300">
              <p>
                <span className="font-mono">{grouped(change.requested.account_number)}</span> ({change.requested.account_holder}), asked by {change.requested_by} on {formatDateTime(change.created_at)}
              </p>
              {change.decided_by && change.decided_at && (
                <p className="text-slate-500 dark:text-slate-400">
                  {change.status === 'approved' ? 'Approved' : 'Rejected'} by {change.decided_by} on {formatDateTime(change.decided_at)}{change.reason ? `: “${change.reason}”` : ''}
                </p>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
