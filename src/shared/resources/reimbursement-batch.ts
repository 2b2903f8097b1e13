import { z } from 'zod';
import { dateField, defineResource, idQuery, requiredText, type SelectOption } from './define';
import { createdAtColumn } from './common';

/**
 * Reimbursement batches (issue 21): finance gathers approved expense claims into a batch, downloads
 * it as a bank's bulk-transfer CSV (one row per payee and currency) and marks it paid with the
 * bank's date and reference; each claim is then Reimbursed and its claimant told. A batch can be
 * cancelled until it is paid, which frees its claims for another batch. Created, paid and cancelled
 * through their own routes (src/server/modules/reimbursement), not the generic form.
 */

export const REIMBURSE_PERMISSION = 'can-reimburse-expense';

export const BATCH_STATUSES = ['open', 'paid', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
const statusLabels: Record<BatchStatus, string> = { open: 'Open', paid: 'Paid', cancelled: 'Cancelled' };
const statusOptions: SelectOption[] = BATCH_STATUSES.map((value) => ({ value, label: statusLabels[value] }));

/** The most claims one batch takes: a bank file of a month's claims, not an archive. */
export const MAX_BATCH_CLAIMS = 500;

/** POST /api/reimbursement-batch. */
export const createBatchSchema = z.object({
  expense_ids: z.array(idQuery(), { error: 'Select at least one approved claim.' })
    .min(1, 'Select at least one approved claim.')
    .max(MAX_BATCH_CLAIMS, `A batch takes at most ${MAX_BATCH_CLAIMS} claims.`),
});

/** POST /api/reimbursement-batch/:id/pay: the day the bank paid and the bank's reference. */
export const payBatchSchema = z.object({
  paid_on: dateField('payment date'),
  payment_reference: requiredText('payment reference', 60),
});
export type PayBatchInput = z.infer<typeof payBatchSchema>;

export const reimbursementBatch = defineResource({
  name: 'reimbursement-batch',
  label: 'Reimbursement batch',
  pluralLabel: 'Reimbursement batches',
  schema: createBatchSchema,
  fields: {
    reference: { label: 'Batch', input: 'text', isColumn: true, isSortable: true, isInForm: false },
    status: {
      label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, isInForm: false,
      badge: { open: 'yellow', paid: 'green', cancelled: 'gray' },
    },
    // Added to each row by the server (decorate): claims, payees and the sums per currency.
    claims_count: { label: 'Claims', input: 'number', isColumn: true, isInForm: false },
    totals: { label: 'Total', input: 'text', isColumn: true, isInForm: false },
    paid_on: { label: 'Paid on', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    payment_reference: { label: 'Payment reference', input: 'text', isColumn: true, isInForm: false },
    created_by: {
      label: 'Created by', input: 'reference', isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'creator' },
    },
    created_at: createdAtColumn,
    expense_ids: { label: 'Claims', input: 'list', isInDetail: false },
  },
  titleKey: 'reference',
  search: ['reference', 'payment_reference'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'paid_on', label: 'Paid on', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: REIMBURSE_PERMISSION },
  routes: { index: 'reimbursement-batch.index', show: 'reimbursement-batch.show' },
  menu: { icon: 'wallet', group: 'Expense', order: 40, label: 'Reimbursement' },
});

/**
 * Bank details kept on a person's record (GET / PUT /api/bank-details/:userId): seen and changed
 * only by the person and by finance. An IBAN is checked by its checksum; otherwise a local account
 * number with a bank code (BIC, UK sort code, Indian IFSC or US routing number) is needed.
 */
export interface BankDetails { account_holder: string; account_number: string; bank_code: string | null }

const compact = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();

/** ISO 13616: move the country and check digits to the end, letters to numbers, mod 97 must be 1. */
export function isValidIban(value: string): boolean {
  const iban = compact(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** Starts like an IBAN (two letters, two digits): then it must be one. */
export const looksLikeIban = (value: string) => /^[A-Z]{2}\d{2}/.test(compact(value));

const BANK_CODE = /^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?|\d{6}|[A-Z]{4}0[A-Z0-9]{6}|\d{9})$/;

export const bankDetailsSchema = z.object({
  account_holder: requiredText('account holder', 140),
  account_number: z.string({ error: 'The IBAN or account number field is required.' }).trim()
    .min(1, 'The IBAN or account number field is required.').max(42, 'The IBAN or account number is too long.'),
  bank_code: z.string().trim().max(14, 'The BIC or sort code is too long.').nullish(),
}).superRefine((value, ctx) => {
  const number = compact(value.account_number);
  if (looksLikeIban(number)) {
    if (!isValidIban(number)) ctx.addIssue({ code: 'custom', path: ['account_number'], message: 'This IBAN is not valid: check it for a mistyped character.' });
  } else if (!/^\d{6,20}$/.test(number)) {
    ctx.addIssue({ code: 'custom', path: ['account_number'], message: 'Enter an IBAN, or an account number of 6 to 20 digits.' });
  }
  const code = value.bank_code ? compact(value.bank_code) : '';
  if (code && !BANK_CODE.test(code)) {
    ctx.addIssue({ code: 'custom', path: ['bank_code'], message: 'Enter a BIC (8 or 11 characters), a sort code (6 digits), an IFSC or a routing number.' });
  } else if (!code && !looksLikeIban(number)) {
    ctx.addIssue({ code: 'custom', path: ['bank_code'], message: 'An account number needs its bank code: a BIC, sort code, IFSC or routing number.' });
  }
}).transform((value): BankDetails => ({
  account_holder: value.account_holder,
  account_number: compact(value.account_number),
  bank_code: value.bank_code ? compact(value.bank_code) : null,
}));
