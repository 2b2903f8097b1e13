// Issue 28, the partner portal's profile page: the firm's own details (address, tax registration), its
// bank details (a change waits for finance; the old account stays in force until then) and, for the
// firm's admin logins, the colleagues' logins (invite, deactivate). The server scopes all of it to the
// caller's firm; this screen only hides what the caller may not do.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  colleagueSchema, firmProfileSchema, type FirmBankDetails,
} from '../../../shared/resources/ikk-partner';
import { bankDetailsSchema } from '../../../shared/resources/reimbursement-batch';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useForm } from '../../lib/form';
import { queryClient, queryKeys } from '../../lib/query';
import type { Unread } from '../../lib/unread';
import { notify } from '../../lib/toast';
import { useCan } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { BankAccountLines, BankChangeHistory, PendingBankChange } from '../../ui/bank-change';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormAlert, TextField } from '../../ui/field';
import { Skeleton } from '../../ui/loading';
import { Modal } from '../../ui/modal';
import type { Colleague, Firm } from '../../../shared/schemas/partner';
import { TextAreaField } from '../../ui/textarea-field';

const FIRM_KEY = ['partner-firm'] as const;
const COLLEAGUES_KEY = ['partner-colleagues'] as const;
const options = { account: 'partner' as const };

/** The firm's cards on the partner profile page. */
export function FirmProfileCards() {
  const can = useCan('partner');
  const { data: firm, isError } = useQuery({
    queryKey: FIRM_KEY,
    queryFn: ({ signal }) => api.get<{ data: Firm }>('/partner/firm', { ...options, signal }).then((answer) => answer.data),
  }, queryClient);
  // The bell's live notifications (fetched by the bell; only read here): one about this page (finance decided
  // the bank details) arriving while it is open brings the firm's details up to date.
  const { data: unread } = useQuery<Unread>({ queryKey: queryKeys.unread('partner'), enabled: false }, queryClient);
  const aboutThisPage = unread?.unread.filter((item) => item.data.url === '/partner/profile').map((item) => item.id).join() ?? '';
  useEffect(() => {
    if (aboutThisPage) void queryClient.invalidateQueries({ queryKey: FIRM_KEY });
  }, [aboutThisPage]);
  if (isError) return null; // the wrapper has said why
  if (!firm) return <Card><div role="status" aria-label="Loading" className="space-y-3 px-5 py-5"><Skeleton className="h-9" /><Skeleton className="h-9" /></div></Card>;
  const isAdmin = can('can-edit-firm-profile');
  return (
    <>
      <FirmDetailsCard key={`details-${firm.id}`} firm={firm} isAdmin={isAdmin} />
      <FirmBankCard firm={firm} isAdmin={isAdmin} />
      {can('can-view-colleague') && <ColleaguesCard canInvite={can('can-add-colleague')} canChange={can('can-edit-colleague')} />}
    </>
  );
}

const setFirm = (firm: Firm) => queryClient.setQueryData(FIRM_KEY, firm);

function FirmDetailsCard({ firm, isAdmin }: { firm: Firm; isAdmin: boolean }) {
  const form = useForm({
    initial: { phone: firm.phone ?? '', address: firm.address ?? '', tax_id: firm.tax_id ?? '' },
    schema: firmProfileSchema,
    onSubmit: async (values) => {
      const answer = await api.patch<{ data: Firm; message: string }>('/partner/firm',
        { phone: values.phone || null, address: values.address || null, tax_id: values.tax_id || null }, { ...options, form: true });
      setFirm(answer.data);
      notify.success(answer.message);
    },
  });
  const place = [firm.city, firm.country].filter(Boolean).join(', ');
  return (
    <Card>
      <CardHeader id="firm-details" title="Your firm" description={isAdmin
        ? 'The address and tax registration on your invoices. The firm\'s name and email are changed by our staff: ask your account manager.'
        : 'Your firm\'s details as we hold them. Your firm\'s admin login can change them.'} />
      {isAdmin ? (
        <form noValidate onSubmit={form.handleSubmit} aria-labelledby="firm-details" className="space-y-5 px-5 py-5">
          <FormAlert message={form.formError} />
          <p className="text-sm text-slate-600 dark:text-slate-300"><span className="font-medium text-slate-900 dark:text-white">{firm.name}</span> · {firm.email}{place ? ` · ${place}` : ''}</p>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField label="Tax registration" autoComplete="off" {...form.field('tax_id')} hint="VAT, GST or company tax number" />
            <TextField label="Phone" type="tel" autoComplete="tel" {...form.field('phone')} hint="Optional" />
            <div className="sm:col-span-2">
              <TextAreaField label="Address" rows={3} maxLength={500} showCount {...form.field('address')} />
            </div>
          </div>
          <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
            <Button type="submit" isLoading={form.isSubmitting}>Save firm details</Button>
          </div>
        </form>
      ) : (
        <dl className="grid gap-4 px-5 py-5 text-sm sm:grid-cols-2">
          {[['Name', firm.name], ['Email', firm.email], ['Tax registration', firm.tax_id], ['Phone', firm.phone], ['Address', firm.address], ['Place', place]].map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
              <dd className="mt-0.5 whitespace-pre-line text-slate-900 dark:text-white">{value || '—'}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

function FirmBankCard({ firm, isAdmin }: { firm: Firm; isAdmin: boolean }) {
  const { current, pending, history } = firm.bank;
  const [isAsking, setAsking] = useState(false);
  const [isWithdrawing, setWithdrawing] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const withdraw = async () => {
    setBusy(true);
    try {
      const answer = await api.delete<{ data: FirmBankDetails; message: string }>('/partner/firm/bank-details/pending', options);
      setFirm({ ...firm, bank: answer.data });
      notify.success(answer.message);
      setWithdrawing(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader id="firm-bank" title="Bank details" description="Where we pay your invoices. A change waits for our finance team to approve it; payments keep going to the current account until then." />
      <div className="space-y-5 px-5 py-5">
        <div>
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">In force</h4>
          <BankAccountLines account={current} empty={pending || !isAdmin ? 'No bank details approved yet.' : 'No bank details approved yet: add them below.'} />
          {current?.approved_at && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Approved on {formatDateTime(current.approved_at)}</p>}
        </div>
        {pending && (
          <PendingBankChange change={pending} note="Our finance team checks new bank details before any payment goes to them."
            actions={isAdmin && <Button variant="secondary" onClick={() => setWithdrawing(true)}>Withdraw request</Button>} />
        )}
        {isAdmin && !isAsking && (
          <div className="flex justify-end">
            <Button variant={pending ? 'secondary' : 'primary'} onClick={() => setAsking(true)}>{pending ? 'Ask for other details instead' : current ? 'Change bank details' : 'Add bank details'}</Button>
          </div>
        )}
        {isAdmin && isAsking && <BankRequestForm onDone={(bank) => { if (bank) setFirm({ ...firm, bank }); setAsking(false); }} holder={current?.account_holder ?? firm.name} />}
        <BankChangeHistory history={history} />
      </div>
      <ConfirmDialog open={isWithdrawing} title="Withdraw the request?" tone="primary" confirmLabel="Withdraw request" isLoading={isBusy}
        message="The new bank details will not be checked, and payments keep going to the current account." onConfirm={withdraw} onClose={() => setWithdrawing(false)} />
    </Card>
  );
}

function BankRequestForm({ holder, onDone }: { holder: string; onDone: (bank: FirmBankDetails | null) => void }) {
  const form = useForm({
    initial: { account_holder: holder, account_number: '', bank_code: '' },
    schema: bankDetailsSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ data: FirmBankDetails; message: string }>('/partner/firm/bank-details', values, { ...options, form: true });
      notify.success(answer.message);
      onDone(answer.data);
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label="New bank details" className="space-y-5 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <FormAlert message={form.formError} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Account holder" autoComplete="organization" required {...form.field('account_holder')} />
        <TextField label="IBAN or account number" autoComplete="off" spellCheck={false} required {...form.field('account_number')} hint="An IBAN is checked for typing mistakes" />
        <TextField label="BIC or sort code" autoComplete="off" spellCheck={false} {...form.field('bank_code')} hint="Also an IFSC or routing number; optional beside an IBAN" />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onDone(null)}>Cancel</Button>
        <Button type="submit" isLoading={form.isSubmitting}>Send to finance for approval</Button>
      </div>
    </form>
  );
}

function ColleaguesCard({ canInvite, canChange }: { canInvite: boolean; canChange: boolean }) {
  const { data: colleagues } = useQuery({
    queryKey: COLLEAGUES_KEY,
    queryFn: ({ signal }) => api.get<{ data: Colleague[] }>('/partner/colleague', { ...options, signal }).then((answer) => answer.data),
  }, queryClient);
  const [isInviting, setInviting] = useState(false);
  const [changing, setChanging] = useState<Colleague | null>(null);
  const [isBusy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: COLLEAGUES_KEY });
  const changeStatus = async () => {
    if (!changing) return;
    setBusy(true);
    try {
      const answer = await api.patch<{ message: string }>(`/partner/colleague/${changing.id}`, { status: changing.status === 'active' ? 'inactive' : 'active' }, options);
      notify.success(answer.message);
      setChanging(null);
      await refresh();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader id="firm-colleagues" title="Colleagues" description="The logins of your firm. A deactivated login is signed out at once and cannot sign in."
        actions={canInvite && <Button onClick={() => setInviting(true)}>Invite a colleague</Button>} />
      {!colleagues && <div role="status" aria-label="Loading" className="space-y-2 px-5 py-5"><Skeleton className="h-8" /><Skeleton className="h-8" /></div>}
      {colleagues && (
        <ul aria-labelledby="firm-colleagues" className="divide-y divide-slate-100 dark:divide-slate-800">
          {colleagues.map((colleague) => (
            <li key={colleague.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                  {colleague.name}{colleague.is_you && <span className="font-normal text-slate-500 dark:text-slate-400"> (you)</span>}
                </p>
                <p className="truncate text-sm text-slate-500 dark:text-slate-400">{colleague.email}</p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {colleague.is_firm_admin && <Badge tone="indigo">Firm admin</Badge>}
                {colleague.status === 'inactive'
                  ? <Badge tone="gray">Inactive</Badge>
                  : !colleague.email_verified_at ? <Badge tone="amber">Invited</Badge> : <Badge tone="green">Active</Badge>}
                {canChange && !colleague.is_you && (
                  <Button size="sm" variant="secondary" onClick={() => setChanging(colleague)}
                    aria-label={`${colleague.status === 'active' ? 'Deactivate' : 'Reactivate'} ${colleague.name}`}>
                    {colleague.status === 'active' ? 'Deactivate' : 'Reactivate'}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Modal open={isInviting} title="Invite a colleague" onClose={() => setInviting(false)}>
        <InviteForm onDone={async (isSent) => { setInviting(false); if (isSent) await refresh(); }} />
      </Modal>
      <ConfirmDialog open={!!changing} isLoading={isBusy} onConfirm={changeStatus} onClose={() => setChanging(null)}
        tone={changing?.status === 'active' ? 'danger' : 'primary'}
        title={changing?.status === 'active' ? `Deactivate ${changing?.name}?` : `Reactivate ${changing?.name ?? ''}?`}
        confirmLabel={changing?.status === 'active' ? 'Deactivate' : 'Reactivate'}
        message={changing?.status === 'active'
          ? 'They are signed out everywhere at once and cannot sign in until the login is reactivated.'
          : 'They can sign in again with their password.'} />
    </Card>
  );
}

function InviteForm({ onDone }: { onDone: (isSent: boolean) => void }) {
  const form = useForm({
    initial: { name: '', email: '', phone: '' },
    schema: colleagueSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>('/partner/colleague', { ...values, phone: values.phone || null }, { ...options, form: true });
      notify.success(answer.message);
      onDone(true);
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label="Invite a colleague" className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      <p className="text-sm text-slate-600 dark:text-slate-300">They get an email with a link to set a password for the partner portal. They see your firm's statements and invoices.</p>
      <TextField label="Name" autoComplete="off" required {...form.field('name')} />
      <TextField label="Email" type="email" autoComplete="off" required {...form.field('email')} />
      <TextField label="Phone" type="tel" autoComplete="off" {...form.field('phone')} hint="Optional" />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-5 sm:flex-row sm:justify-end dark:border-slate-800">
        <Button variant="secondary" onClick={() => onDone(false)}>Cancel</Button>
        <Button type="submit" isLoading={form.isSubmitting}>Send invitation</Button>
      </div>
    </form>
  );
}
