// @vitest-environment jsdom
// Issue 21, contracts after a new PO: the new PO is prefilled to start the day after the old one
// ends; a PO not started yet reads as starting on its date; a renewed one names its successor.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ContractNewPo, ContractStatus } from '../../src/client/features/resources/operations';
import { WorkflowStatus } from '../../src/client/ui/resources/workflow';
import { contractWorkflow } from '../../src/shared/resources/contract';

afterEach(cleanup);

describe('contracts after a new PO', () => {
  it('prefills the new PO to start the day after the old one ends', () => {
    render(<ContractNewPo row={{ id: 7, po_number: 'PO-1001', end_date: '2026-12-05', currency: 'EUR', can_release_new_po: true }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Release new PO' }));
    expect((screen.getByRole('textbox', { name: /Start date/ }) as HTMLInputElement).value).toBe('2026-12-06');
  });

  it('reads a PO not started yet as starting on its date, and a renewed one as Active, renewed by its successor', () => {
    render(<ContractStatus row={{ id: 1, status: 'Active', starts_on: '2026-12-06', status_note: 'Starts on 2026-12-06' }} />);
    expect(screen.getByText('Starts on 2026-12-06')).toBeTruthy();
    expect(screen.queryByText('Active')).toBeNull();
    cleanup();
    render(<ContractStatus row={{ id: 1, status: 'Active', starts_on: null, status_note: 'Renewed by PO-1002' }} />);
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText('Renewed by PO-1002')).toBeTruthy();
  });
});

describe('a contract’s detail page status', () => {
  it('says what the status alone does not: renewed by its successor', () => {
    render(<WorkflowStatus workflow={contractWorkflow} value="Active" note="Renewed by PO-1002" />);
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText('Renewed by PO-1002')).toBeTruthy();
    expect(screen.queryByText('Running under this PO')).toBeNull();
  });
});
