// @vitest-environment jsdom
// A picker with nothing to choose from says who adds the options and, to those who may, links there
// (issue 22), worded from the resource the options come from.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchableSelect } from '../../src/client/ui/combobox';
import { emptyChoicesFor } from '../../src/client/ui/resources/empty-choices';

afterEach(cleanup);

describe('emptyChoicesFor', () => {
  it('tells someone who cannot add them that an admin adds them, without a link', () => {
    expect(emptyChoicesFor('expense-category', ['can-view-expense', 'can-add-expense'])).toEqual({
      message: 'No expense categories yet. An admin adds them under Expense Categories.',
    });
  });

  it('links someone who may add them to the screen where they are added', () => {
    expect(emptyChoicesFor('expense-category', ['can-add-expense-category'])).toEqual({
      message: 'No expense categories yet. You can add them under Expense Categories.',
      link: { label: 'Go to Expense Categories', href: '/expense-category' },
    });
  });

  it('says nothing for an option source that is no resource', () => {
    expect(emptyChoicesFor('no-such-thing', [])).toBeUndefined();
  });
});

describe('an empty picker', () => {
  it('says who adds the options, in the list and under the field, with the link', async () => {
    const load = vi.fn(async () => []);
    render(<SearchableSelect label="Category" name="category_id" value={null} onChange={() => {}} load={load}
      emptyChoices={{ message: 'No expense categories yet. You can add them under Expense Categories.', link: { label: 'Go to Expense Categories', href: '/expense-category' } }} />);
    const input = screen.getByRole('combobox', { name: 'Category' });
    await act(async () => { fireEvent.click(input); });
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 50)); });
    expect(load).toHaveBeenCalled();
    expect(screen.getAllByText(/No expense categories yet\. You can add them under Expense Categories\./).length).toBeGreaterThan(0);
    expect(screen.queryByText('Nothing to choose from')).toBeNull();
    const note = screen.getByTestId('empty-choices');
    expect(note.querySelector('a')?.getAttribute('href')).toBe('/expense-category');
  });

  it('still says "No results" for a search that finds nothing', async () => {
    render(<SearchableSelect label="Category" name="category_id" value={null} onChange={() => {}} load={async () => []}
      emptyChoices={{ message: 'No expense categories yet. An admin adds them under Expense Categories.' }} />);
    const input = screen.getByRole('combobox', { name: 'Category' });
    await act(async () => { fireEvent.change(input, { target: { value: 'taxi' } }); });
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 400)); });
    expect(screen.getByText('No results for “taxi”')).toBeTruthy();
    expect(screen.queryByTestId('empty-choices')).toBeNull();
  });
});
