// @vitest-environment jsdom
// Searchable selects: focus alone never opens the list (Tab would then choose its first option);
// a click or typing does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchableSelect } from '../../src/client/ui/combobox';

afterEach(cleanup);

const countries = [{ id: 1, label: 'France' }, { id: 2, label: 'Spain' }];

function renderSelect() {
  const onChange = vi.fn();
  const load = vi.fn(async () => countries);
  render(<SearchableSelect label="Country" name="country_id" value={null} onChange={onChange} load={load} />);
  return { onChange, input: screen.getByRole('combobox', { name: 'Country' }) };
}

describe('SearchableSelect', () => {
  it('chooses nothing when the user tabs through it', async () => {
    const { onChange, input } = renderSelect();
    await act(async () => { input.focus(); fireEvent.focus(input); });
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 300)); });
    expect(screen.queryByRole('option')).toBeNull();
    await act(async () => { fireEvent.keyDown(input, { key: 'Tab' }); });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('opens the choices on a click', async () => {
    const { input } = renderSelect();
    await act(async () => { fireEvent.click(input); });
    expect(await screen.findByRole('option', { name: 'Spain' })).toBeTruthy();
  });
});
