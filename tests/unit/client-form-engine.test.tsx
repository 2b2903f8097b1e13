// @vitest-environment jsdom
// The one form engine (decision 013-one-form-engine): the zod resolver over a shared schema, the one 422
// mapping (flat, bracketed and dotted keys; a key naming no field on screen becomes the form's message),
// field arrays (an error on line 3 lands on line 3), the dirty guard and a dialog's first-field focus.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { useFieldArray, useForm } from 'react-hook-form';
import { loginSchema } from '../../src/shared/schemas/auth';
import { role } from '../../src/shared/resources/role';
import { ApiError } from '../../src/client/lib/api';
import { applyServerErrors, errorPath, formMessage, formResolver, submitForm } from '../../src/client/lib/form';
import { flattenErrors } from '../../src/client/lib/form-errors';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { RoleForm } from '../../src/client/features/resources/role-form';
import { Modal } from '../../src/client/ui/modal';
import type { LoginResponse } from '../../src/shared/schemas/auth';

beforeEach(() => {
  // jsdom has no CSS.escape; the engine uses it to focus the first field with an error.
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const invoiceForm = () => renderHook(() => {
  const form = useForm({ defaultValues: { title: '', lines: [{ hours: '1' }, { hours: '2' }, { hours: '3' }], receipts: [] as string[] } });
  void form.formState.errors; // subscribes, as a form that shows its errors does
  return form;
});

describe('the 422 mapping', () => {
  it('spells every key as react-hook-form does', () => {
    expect(errorPath('title')).toBe('title');
    expect(errorPath('lines.2.hours')).toBe('lines.2.hours');
    expect(errorPath('lines[2][hours]')).toBe('lines.2.hours');
    expect(errorPath('receipts[]')).toBe('receipts');
    expect(errorPath('receipts[1]')).toBe('receipts.1');
  });

  it('puts flat, bracketed and dotted keys on their fields, and a key naming no field above the form', () => {
    const { result } = invoiceForm();
    let message: string | null = null;
    act(() => {
      message = applyServerErrors(result.current, {
        title: ['The title field is required.'],
        'lines[1][hours]': ['The hours must be at least 0.5.'],
        'lines.2.hours': ['The hours may not be greater than 24.'],
        partner_id: ['The partner has no agreement for this month.'],
      }, { message: 'The given data was invalid.' });
    });
    const errors = flattenErrors(result.current.formState.errors);
    expect(errors.title).toEqual(['The title field is required.']);
    expect(errors['lines.1.hours']).toEqual(['The hours must be at least 0.5.']);
    expect(errors['lines.2.hours']).toEqual(['The hours may not be greater than 24.']);
    expect(errors['lines.0.hours']).toBeUndefined();
    expect(errors.partner_id).toBeUndefined();
    expect(message).toBe('The partner has no agreement for this month.');
    expect(formMessage(result.current)).toBe('The partner has no agreement for this month.');
  });

  it('says nothing above the form when every key names a field', () => {
    const { result } = invoiceForm();
    act(() => { applyServerErrors(result.current, { title: ['Taken.'] }, { message: 'The title has already been taken.' }); });
    expect(formMessage(result.current)).toBeNull();
  });

  it('submitForm maps a 422 and hands a success on', async () => {
    const { result } = invoiceForm();
    const refused = new ApiError('The given data was invalid.', 422, { 'lines.2.hours': ['Too many hours.'] });
    let answer: unknown = 'unset';
    await act(async () => { answer = await submitForm(result.current, () => Promise.reject(refused)); });
    expect(answer).toBeUndefined();
    expect(flattenErrors(result.current.formState.errors)['lines.2.hours']).toEqual(['Too many hours.']);
    const saved = vi.fn();
    await act(async () => { answer = await submitForm(result.current, () => Promise.resolve({ data: { id: 4 } }), { onSaved: saved }); });
    expect(saved).toHaveBeenCalledWith({ data: { id: 4 } });
    expect(answer).toEqual({ data: { id: 4 } });
  });
});

describe('the resolver', () => {
  it('checks the shared login schema, and hands on the parsed values', async () => {
    const resolver = formResolver(loginSchema);
    const options = { fields: {}, shouldUseNativeValidation: false } as never;
    const refused = await resolver({ email: 'not an email', password: '' }, undefined, options);
    expect(Object.keys(refused.errors).sort()).toEqual(['email', 'password']);
    expect(refused.errors.password?.message).toBe('The password field is required.');
    const accepted = await resolver({ email: 'ada@example.com', password: 'secret' }, undefined, options);
    expect(accepted.errors).toEqual({});
    expect(accepted.values).toEqual({ email: 'ada@example.com', password: 'secret' });
  });

  it('loads a lazy schema at the first check', async () => {
    const load = vi.fn(async () => loginSchema);
    const resolver = formResolver(load);
    expect(load).not.toHaveBeenCalled();
    await resolver({ email: '', password: '' }, undefined, { fields: {}, shouldUseNativeValidation: false } as never);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

/** A list of lines on a field array, saved through the engine. */
function Lines({ send }: { send: () => Promise<unknown> }) {
  const form = useForm({ defaultValues: { lines: [{ hours: '8' }] } });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'lines' });
  const errors = flattenErrors(form.formState.errors);
  return (
    <form onSubmit={form.handleSubmit(() => submitForm(form, send))}>
      {fields.map((field, index) => (
        <div key={field.id}>
          <input aria-label={`Hours of line ${index + 1}`} {...form.register(`lines.${index}.hours`)} />
          {errors[`lines.${index}.hours`] && <p>{`Line ${index + 1}: ${errors[`lines.${index}.hours`][0]}`}</p>}
          <button type="button" onClick={() => remove(index)}>{`Remove line ${index + 1}`}</button>
        </div>
      ))}
      <button type="button" onClick={() => append({ hours: '' })}>Add line</button>
      <button type="submit">Save</button>
    </form>
  );
}

describe('field arrays', () => {
  it('adds and removes lines, and an error on line 3 lands on line 3', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError('The given data was invalid.', 422, { 'lines[2][hours]': ['The hours may not be greater than 24.'] })));
    render(<Lines send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    expect(screen.getAllByRole('textbox')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 4' }));
    expect(screen.getAllByRole('textbox')).toHaveLength(3);
    fireEvent.change(screen.getByRole('textbox', { name: 'Hours of line 3' }), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Line 3: The hours may not be greater than 24.')).toBeTruthy();
    expect(screen.queryByText(/^Line [12]:/)).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Hours of line 3' })));
  });
});

const login = (roles: string[], permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles, permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});
const AREAS = ['country', 'state', 'city', 'currency'];
const groups = AREAS.map((area, a) => ({ area, permissions: ['view', 'add', 'edit', 'delete'].map((verb, v) => ({ id: a * 4 + v + 1, name: `can-${verb}-${area}` })) }));
const tickAll = async () => { for (const area of ['Country', 'State', 'City', 'Currency']) fireEvent.click(await screen.findByRole('checkbox', { name: `All ${area} permissions` })); };

describe('the role form in a dialog', () => {
  beforeEach(async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: groups }), { status: 200 })));
    document.cookie = 'XSRF-TOKEN=x';
    await hydrateAuth();
    await clearAuth('app');
    await storeLogin('app', login(['admin'], ['can-edit-role']));
  });

  const openRoleDialog = (onClose = vi.fn()) => {
    render(
      <Modal open title="Add role" onClose={onClose} size="lg">
        <RoleForm definition={role} row={null} onSaved={() => {}} onCancel={onClose} isDialog />
      </Modal>,
    );
    return onClose;
  };
  const escape = () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

  it('opens with focus on its first field', async () => {
    openRoleDialog();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Name/ })));
  });

  it('closes on Escape at once when nothing changed', async () => {
    const onClose = openRoleDialog();
    await screen.findByRole('checkbox', { name: 'All Country permissions' });
    escape();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByText('Discard your changes?')).toBeNull();
  });

  it('asks before Escape throws away 16 ticked permissions; Keep editing keeps them, Discard closes', async () => {
    const onClose = openRoleDialog();
    await tickAll();
    expect(screen.getByText('16 of 16 selected')).toBeTruthy();
    escape();
    expect(await screen.findByText('Discard your changes?')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText('Discard your changes?')).toBeNull());
    expect(screen.getByText('16 of 16 selected')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('asks before Cancel too', async () => {
    const onClose = openRoleDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'Recruiter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Discard your changes?')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
