// @vitest-environment jsdom
// Searchable selects: focus alone never opens the list (Tab would then choose its first option);
// a click or typing does. A choice made with the pointer does not take focus back from the field the
// person moved to before the next frame (ui/focus-after-choice.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { type ChoiceOption, MultiSearchableSelect, SearchableSelect } from '../../src/client/ui/combobox';

afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const countries = [{ id: 1, label: 'France' }, { id: 2, label: 'Spain' }];

function renderSelect() {
  const onChange = vi.fn();
  const load = vi.fn(async () => countries);
  render(<SearchableSelect label="Country" name="country_id" value={null} onChange={onChange} load={load} />);
  return { onChange, input: screen.getByRole('combobox', { name: 'Country' }) };
}

/** A picker and the field after it, as on the time-sheet upload (client, then hours). */
function PickerThenField({ isMultiple }: { isMultiple: boolean }) {
  const [one, setOne] = useState<ChoiceOption | null>(null);
  const [many, setMany] = useState<ChoiceOption[]>([]);
  const load = async () => countries;
  return (<>
    {isMultiple
      ? <MultiSearchableSelect label="Country" name="country_ids" value={many} onChange={setMany} load={load} />
      : <SearchableSelect label="Country" name="country_id" value={one} onChange={setOne} load={load} />}
    <label>Hours<input name="hours" /></label>
  </>);
}

/** Resolves once two animation frames have run: the one a pointer choice refocuses the picker in, and the next. */
const twoFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('SearchableSelect', { timeout: 30_000 }, () => {
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

  // On a busy page the frame Headless UI refocuses the picker in can come after the move to the next
  // field: what is typed there must not land in the picker.
  it.each([['one choice', false], ['many choices', true]])('leaves focus in the field moved to right after a pointer choice (%s)', async (_kind, isMultiple) => {
    // The choices' popover measures itself (Headless UI); jsdom has no layout to observe.
    vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
    render(<PickerThenField isMultiple={isMultiple} />);
    const picker = screen.getByRole('combobox', { name: 'Country' });
    await act(async () => { fireEvent.click(picker); });
    const spain = await screen.findByRole('option', { name: 'Spain' });
    const hours = screen.getByRole('textbox', { name: 'Hours' });
    // In one go, so that no frame can come between the choice and the move (as on a busy page).
    await act(async () => { fireEvent.mouseDown(spain); hours.focus(); });
    await act(twoFrames);
    expect(document.activeElement).toBe(hours);
    expect(isMultiple ? screen.getByRole('list', { name: 'Chosen country' }).textContent : (picker as HTMLInputElement).value).toContain('Spain');
  });

  it('keeps focus in the picker when it is pressed again after the move', async () => {
    vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
    render(<PickerThenField isMultiple={false} />);
    const picker = screen.getByRole('combobox', { name: 'Country' });
    await act(async () => { fireEvent.click(picker); });
    const spain = await screen.findByRole('option', { name: 'Spain' });
    await act(async () => {
      fireEvent.mouseDown(spain);
      screen.getByRole('textbox', { name: 'Hours' }).focus();
      fireEvent.pointerDown(picker);
      picker.focus();
    });
    await act(twoFrames);
    expect(document.activeElement).toBe(picker);
  });
});
