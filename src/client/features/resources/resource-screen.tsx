// One screen component for every route of src/shared/resources: it finds the definition owning the
// route name and renders its list, form or detail page. Behaviour beyond the generic screens is
// declared per resource in `customizations` below; the generic code is not copied.
import { Link, useLocation, useSearch } from 'wouter';
import { abilitiesOf } from '../../../shared/resources/define';
import { ACTIVE_USER_MINUTES, admin, manager, user } from '../../../shared/resources/user';
import { InvitationSection, invitationBulk, ResendInvitationAction } from './invitations';
import { questionCategory } from '../../../shared/resources/question-category';
import { routePath } from '../../../shared/routes';
import { formatDateTime, inSentence } from '../../lib/format';
import type { ScreenProps } from '../../routes';
import { Card, PageHeader } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { queuedItemOf, useResourceRecord } from '../../ui/resources/resource-api';
import { useQueuedRow } from '../../ui/resources/queued-items';
import { BackLink, offlineRecordText, ResourceDetail } from '../../ui/resources/resource-detail';
import { ResourceForm } from '../../ui/resources/resource-form';
import { iconAction, ResourceList, usePermissionCheck, useWriteCheck, type ResourceCustomization } from '../../ui/resources/resource-list';
import { displayText, parentIdFromParams, resourceForRoute, resourcePath } from '../../ui/resources/resource-values';
import { CandidateDetail, CandidateForm, CandidateFormLinkButton, CandidateHeaderActions, CandidateStage } from './candidate';
import { CandidateInterviewSections, InterviewScorecardsSection, PositionPipelineSection } from './interviews';
import { DealBoard, DealValue, DealWeightedValue, WonDealActions, WonDealSection } from './deal-tracking';
import { BatchDetail, BatchTotals, NewBatchLink, PersonBankDetails } from './reimbursement';
import { ExpenseAmount, ExpenseDuplicateFlag, ExpenseForm, ExpenseTotalsSummary } from './expense';
import { LeaveApplicationForm } from './leave-application-form';
import {
  InvoiceDueDate, InvoiceMoney, InvoiceNet, InvoiceOverdueFlag, InvoicePayments, InvoicePreBilling, InvoiceStatus, InvoiceTotal, PartnerInvoiceForm,
} from './partner-invoice';
import { PreBillingDetail, PreBillingForm, PreBillingMonth, PreBillingSupplements, preBillingTitle, PreBillingTotal } from './pre-billing';
import { PersonCompliance } from './person-compliance';
import { ResetSecondFactorAction, SecondFactorSection } from './second-factor-reset';
import { RequestComments, RequestLabels } from './request';
import { RoleForm } from './role-form';
import { CloneRoleAction, PartnerBankDetails } from './partner-bank-details';
import { ContractNewPo, ContractStatus, ContractValue, OverdueCount, TaskDaysOverdue, TaskDueIn } from './operations';
import type { Row } from '../../ui/resources/use-resource-query';

/** "3 min ago" for the last few hours, the date and time beyond. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDateTime(iso);
}

function LastActivity({ value }: { value: unknown }) {
  if (typeof value !== 'string') return <span className="text-slate-400">—</span>;
  return (
    <span className="inline-flex items-center gap-2">
      <span className="size-2 rounded-full bg-emerald-500" aria-hidden="true" />
      <time dateTime={value} title={formatDateTime(value)}>{timeAgo(value)}</time>
      <span className="hidden text-xs text-slate-500 tabular-nums lg:inline dark:text-slate-400">{formatDateTime(value)}</span>
    </span>
  );
}

/** A link that looks like the secondary button beside it. */
const linkButton = 'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-white px-3 text-sm sm:px-4 font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700';

export const customizations: Record<string, ResourceCustomization> = {
  // A category has no show screen (spec §2): its page is its question list.
  'question-category': {
    rowHref: (row, can) => (can('can-view-question') ? routePath('question-category.question', { id: row.id }) : null),
    rowActions: (row, can) => can('can-view-question') && (
      <Link href={routePath('question-category.question', { id: row.id })} className={iconAction}
        aria-label={`Questions of ${String(row.name ?? '')}`} title="Questions"><Icon name="list" className="size-4" /></Link>
    ),
  },
  // Issue 28: a change applies at once to the holders' open sessions; a role can be cloned.
  role: {
    form: RoleForm, dialogSize: 'lg',
    description: 'Roles group permissions by screen; a change applies at once to everyone who holds the role.',
    rowActions: (row, can) => can('can-add-role') && <CloneRoleAction row={row} />,
  },
  // Issue 28: the catalogue of the permissions the code checks, read only.
  permission: { description: 'Every permission the app checks, with the screen it belongs to and what it opens. Give them to people through roles.' },
  // Issue 28: finance decides the firm's new bank details on its page.
  'ikk-partner': { detailSection: (row) => <PartnerBankDetails row={row} /> },
  // Issue 29: an admin resets a partner login's second factor from its row on the firm's page.
  'partner-account': { rowActions: (row) => <ResetSecondFactorAction row={row} /> },
  // Issue 9: the form shows the balance left after the request; the list links to who is away when.
  'leave-application': {
    form: LeaveApplicationForm,
    description: 'Leave waits for the manager, who decides how the work is covered.',
    headerActions: (
      <>
        <Link href={routePath('leave-application.ledger')} className={linkButton} aria-label="Leave ledger" title="Leave ledger">
          <Icon name="list" className="size-4" /><span className="hidden sm:inline">Ledger</span>
        </Link>
        <Link href={routePath('leave-application.calendar')} className={linkButton} aria-label="Team calendar" title="Team calendar">
          <Icon name="calendar" className="size-4" /><span className="hidden sm:inline">Team calendar</span>
        </Link>
      </>
    ),
  },
  // Issue 9: amounts with their currency and the duplicate flag; the receipt rule above the form.
  expense: {
    form: ExpenseForm,
    description: 'Claims wait for the manager, then finance reviews and approves them for reimbursement.',
    aboveList: <ExpenseTotalsSummary />,
    cells: { amount: (row) => <ExpenseAmount row={row} />, is_possible_duplicate: (row) => <ExpenseDuplicateFlag row={row} /> },
  },
  // Issue 21: batches of approved claims, made from their own screen, paid or cancelled on their page.
  'reimbursement-batch': {
    description: 'Approved expense claims paid together by one bulk bank transfer.',
    headerActions: <NewBatchLink />,
    cells: { totals: (row) => <BatchTotals row={row} /> },
    detailSection: (row) => <BatchDetail row={row} />,
  },
  // Issue 11: the partner's statement with its lines editor; staff see the lines beside the time sheets.
  'pre-billing': {
    form: PreBillingForm,
    description: 'Monthly statements of the partner firms, checked against the approved time sheets.',
    partnerDescription: 'Your monthly statements: accounting checks each against the approved time sheets before you invoice it.',
    cells: { month: (row) => <PreBillingMonth row={row} />, total: (row) => <PreBillingTotal row={row} />, supplements_id: (row) => <PreBillingSupplements row={row} /> },
    detailSection: (row) => <PreBillingDetail row={row} />,
    recordTitle: preBillingTitle,
  },
  // Issue 11: amounts with their currency, overdue due dates, the partner's own status words; the form
  // picks among the statements the firm may invoice. Issue 21: the net against the pre-billing, the payments.
  'partner-invoice': {
    form: PartnerInvoiceForm,
    description: 'Invoices of the partner firms: the account manager approves each, then finance, who records its payments until it is paid.',
    partnerDescription: 'Your invoices for approved statements: your account manager approves each, then our finance team, who pays it.',
    cells: {
      amount: (row) => <InvoiceNet row={row} />,
      tax: (row) => <InvoiceMoney row={row} field="tax" />,
      amount_paid: (row) => <InvoiceMoney row={row} field="amount_paid" />,
      outstanding: (row) => <InvoiceMoney row={row} field="outstanding" />,
      total: (row) => <InvoiceTotal row={row} />,
      due_date: (row) => <InvoiceDueDate row={row} />,
      pre_billing_id: (row) => <InvoicePreBilling row={row} />,
      status: (row) => <InvoiceStatus row={row} />,
      is_overdue: (row) => <InvoiceOverdueFlag row={row} />,
    },
    detailSection: (row) => <InvoicePayments row={row} />,
  },
  // Issue 12: the stage with its time, duplicates linked in the form, the board and the candidate form's links.
  candidate: {
    form: CandidateForm,
    description: 'Candidates for the client positions, through the hiring stages.',
    headerActions: <CandidateHeaderActions />,
    cells: { stage: (row) => <CandidateStage row={row} /> },
    // Issue 28: the interviews' scorecards side by side and, at Offer Letter Review, the offer letter.
    detailSection: (row) => <><CandidateDetail row={row} /><CandidateInterviewSections row={row} /></>,
  },
  position: {
    rowActions: (row, can) => can('can-add-candidate') && row.status === 'open' && (
      <CandidateFormLinkButton isIconOnly position={{ id: row.id, label: String(row.title ?? '') }} />
    ),
    // Issue 28: candidates per stage, days open and time in stage.
    detailSection: (row) => <PositionPipelineSection row={row} />,
  },
  // Issue 28: the invitation goes by mail on schedule, reschedule and cancel; scorecards on the interview's page.
  interview: {
    description: 'Interviews of candidates at the Interview and Client Interview stages. The candidate and the interviewers get a calendar invitation; a change or a cancellation updates it.',
    detailSection: (row) => <InterviewScorecardsSection row={row} />,
  },
  'offer-template': { description: 'The firm\'s offer letters, with placeholders filled in from the candidate and the offer: {{candidate_name}}, {{position}}, {{client}}, {{start_date}}, {{rate}}.' },
  // Issue 13: checks of a candidate or an employee, their components listed below the check.
  'bgv-check': { description: 'Background checks of candidates and employees; the result follows the components.' },
  // Issue 13: the board by stage with the weighted pipeline above the list; a won deal opens positions or a request.
  'deal-tracking': {
    description: 'Deals with clients by stage; each stage carries a fixed win probability.',
    aboveList: <DealBoard />,
    cells: { value: (row) => <DealValue row={row} />, weighted_value: (row) => <DealWeightedValue row={row} /> },
    rowActions: (row, can) => <WonDealActions row={row} can={can} />,
    detailSection: (row) => <WonDealSection row={row} />,
  },
  // Issue 13: labels as chips; the comment thread under the request.
  request: {
    description: 'Service requests, worked by their assignee from Requested to Completed.',
    cells: { labels: (row) => <RequestLabels row={row} /> },
    detailSection: (row) => <RequestComments row={row} />,
  },
  // Issue 13: overdue checklists stand out; a task's spec §5 countdown and lateness; a contract's
  // value with its currency and, below it, the new PO that replaces it.
  onboarding: {
    description: 'One per person placed: the checklist to work through, from the start date to the last day.',
    cells: { overdue_tasks: (row) => <OverdueCount row={row} /> },
  },
  'onboarding-task': { cells: { due_in: (row) => <TaskDueIn row={row} />, days_overdue: (row) => <TaskDaysOverdue row={row} /> } },
  'onboarding-template': { description: 'The tasks every onboarding and offboarding starts with; changes apply to new checklists.' },
  contract: {
    description: 'Client purchase orders: the owner is reminded 30 and 7 days before the end; a contract expires on its end date, and a new PO takes over the day after.',
    cells: { value: (row) => <ContractValue row={row} />, status: (row) => <ContractStatus row={row} /> },
    detailSection: (row) => <ContractNewPo row={row} />,
  },
  // Issue 10: a person's compliance (badge, own documents, assignments) below their record; issue 21: their bank details, for finance.
  // Issue 22: "Resend invitation" on the page, the row and the ticked rows of people not signed up yet.
  ...Object.fromEntries([admin, manager, user].map((definition) => [definition.name, {
    detailSection: (row: Row) => <><InvitationSection definition={definition} row={row} /><PersonCompliance userId={row.id} /><PersonBankDetails userId={row.id} /><SecondFactorSection row={row} /></>,
    rowActions: (row: Row) => <ResendInvitationAction definition={definition} row={row} />,
    bulk: invitationBulk(definition),
  } satisfies ResourceCustomization])),
  'document-repository': { description: 'Policies and forms the firm assigns. Adding a file to a document publishes a new version and asks its assignees again.' },
  'document-assign-history': { description: 'Every assignment with its status; open one to see its timeline and review a returned copy.' },
  'active-user': {
    refreshMs: 60_000,
    description: `Users seen in the last ${ACTIVE_USER_MINUTES} minutes.`,
    cells: { last_activity_at: (row) => <LastActivity value={row.last_activity_at} /> },
  },
};

export default function ResourceScreen({ account, params, routeName }: ScreenProps) {
  const found = resourceForRoute(routeName);
  if (!found) return <EmptyState icon="compass" title="This screen is not available." />;
  const { definition, kind } = found;
  const customization = customizations[definition.name] ?? {};
  const parentId = parentIdFromParams(definition, kind, params);

  if (kind === 'index' && definition.parent) return <ChildList key={parentId} {...{ account, parentId, customization, definition }} />;
  if (kind === 'index') return <ResourceList definition={definition} account={account} customization={customization} />;
  if (kind === 'show') return <ResourceDetail key={params.id} definition={definition} account={account} id={params.id} customization={customization} relatedCustomizations={customizations} />;
  return <FormPage key={`${kind}-${params.id ?? ''}`} definition={definition} account={account} id={kind === 'edit' ? params.id : null} parentId={parentId} customization={customization} />;
}

/** Questions of one category: the generic list filtered by the parent, titled by it. */
function ChildList({ definition, account, parentId, customization }: { definition: NonNullable<ReturnType<typeof resourceForRoute>>['definition']; account: ScreenProps['account']; parentId: string | null; customization: ResourceCustomization }) {
  const parentDefinition = definition.parent?.resource === questionCategory.name ? questionCategory : null;
  const { row: parent } = useResourceRecord(questionCategory, parentDefinition ? parentId : null);
  const parentIndex = parentDefinition ? resourcePath(parentDefinition, 'index') : null;
  return (
    <ResourceList definition={definition} account={account} parentId={parentId} customization={customization}
      title={parent ? `${definition.pluralLabel}: ${String(parent.name)}` : definition.pluralLabel}
      description={parent ? `${parentDefinition!.label} “${String(parent.name)}”` : undefined}
      breadcrumb={parentIndex && <BackLink href={parentIndex}>Back to {inSentence(parentDefinition!.pluralLabel)}</BackLink>} />
  );
}

function FormPage({ definition, account, id, parentId, customization }: {
  definition: NonNullable<ReturnType<typeof resourceForRoute>>['definition']; account: ScreenProps['account']; id: string | null; parentId: string | null; customization: ResourceCustomization;
}) {
  const can = usePermissionCheck(account);
  const canWrite = useWriteCheck(definition, account);
  const [, navigate] = useLocation();
  // `/request/create?title=…`: a record opened from another (a won deal) starts with its values.
  const search = useSearch();
  const { row: serverRow, error, isUnreachable } = useResourceRecord(definition, id);
  // `?outbox=<id>` (issue 26): a change waiting in the outbox, opened to be changed or fixed before it is sent.
  const outboxId = new URLSearchParams(search).get('outbox');
  const queuedRow = useQueuedRow(definition, id && !serverRow ? null : outboxId, serverRow);
  const isQueuedGone = !!outboxId && queuedRow === null && (!id || !!serverRow);
  const row = outboxId && queuedRow ? queuedRow : serverRow;
  const parent = parentId ?? (definition.parent && row ? String(row[definition.parent.field]) : null);
  // Someone who may file a record but not list them (can-add-expense alone) is never sent to a list that denies them.
  const indexPath = can(definition.permissions.view) ? resourcePath(definition, 'index', { parentId: parent }) : null;
  const Form = customization.form ?? ResourceForm;
  const title = outboxId ? `Change the waiting ${inSentence(definition.label)}` : `${id ? 'Edit' : 'Create'} ${definition.label}`;
  const refusal = queuedItemOf(row)?.message;

  const onSaved = (saved: Row) => {
    // Kept in the outbox: a new record waits at the top of its list, an edit on its record's page.
    const isQueued = !!queuedItemOf(saved);
    const show = can(definition.permissions.view) && (!isQueued || id) ? resourcePath(definition, 'show', { id: isQueued ? id! : saved.id, parentId: parent }) : null;
    navigate(show ?? indexPath ?? '/dashboard');
  };
  const onCancel = () => {
    const show = id && can(definition.permissions.view) ? resourcePath(definition, 'show', { id, parentId: parent }) : null;
    navigate(show ?? indexPath ?? '/dashboard');
  };

  return (
    <>
      {indexPath && <BackLink href={indexPath}>Back to {inSentence(definition.pluralLabel)}</BackLink>}
      <PageHeader title={title} description={row ? displayText(definition.fields[definition.titleKey], definition.titleKey, row) : undefined} />
      <Card className="max-w-3xl">
        {/* Issue 20: opened by its address, an admin-only form says so before anything is typed. */}
        {!canWrite(id ? definition.permissions.edit : definition.permissions.add)
          ? <EmptyState icon="shield" title="Only an admin can add or edit admin accounts." description="Ask one of the firm's admins to make this change." />
          : <>
        {id && error && (isUnreachable
          ? <EmptyState icon="alert" title="Not available offline" description={offlineRecordText(definition)} />
          : <EmptyState icon="alert" title={error} description={`The ${inSentence(definition.label)} may have been deleted.`} />)}
        {isQueuedGone && (
          <EmptyState icon="check" title="This change is no longer waiting." description="It was sent or discarded meanwhile. Its list shows where it stands." />
        )}
        {refusal && (
          <p role="alert" className="mx-5 mt-5 rounded-lg bg-rose-50 px-3 py-2.5 text-sm text-rose-900 ring-1 ring-inset ring-rose-200 dark:bg-rose-500/10 dark:text-rose-100 dark:ring-rose-500/30">
            <strong className="font-semibold">Not sent.</strong> The server answered: “{refusal}” Correct it and save to send it again, or discard it from the outbox.
          </p>
        )}
        {((id && !row && !error) || (outboxId && queuedRow === undefined && !isQueuedGone && !error)) && (
          <div role="status" aria-label="Loading" className="grid gap-5 p-5 sm:grid-cols-2">
            {Array.from({ length: 4 }, (_, i) => <div key={i} className="space-y-2"><Skeleton className="h-3 w-24" /><Skeleton className="h-9" /></div>)}
          </div>
        )}
        {/* Issue 23: opened by its address, a record the caller may not change says so before anything is typed. */}
        {id && row && !abilitiesOf(row).update && (
          <EmptyState icon="shield" title={`You cannot edit this ${inSentence(definition.label)}.`}
            description="It may be someone else's, or decided already. Its page shows what you can do with it." />
        )}
        {!isQueuedGone && (!outboxId || queuedRow) && (!id || (row && abilitiesOf(row).update)) && <Form key={`${row?.id ?? 'new'}-${outboxId ?? ''}`} definition={definition} row={row} parentId={parentId} onSaved={onSaved} onCancel={onCancel}
          initialValues={id ? undefined : Object.fromEntries(new URLSearchParams(search))} />}
          </>}
      </Card>
    </>
  );
}
