// @vitest-environment jsdom
// The shared Button while it is busy: a keyboard user who pressed Save keeps the focus on it (a disabled
// button dropped it to the page, and the next Tab started from the top), and the form is still sent once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Button } from '../../src/client/ui/button';
import { useForm } from '../../src/client/lib/form';

afterEach(cleanup);

/** A save that answers only when the test says so. */
function pendingSave() {
  let finish = () => {};
  const onSubmit = vi.fn(() => new Promise<void>((resolve) => { finish = resolve; }));
  return { onSubmit, finish: () => finish() };
}

function NameForm({ onSubmit }: { onSubmit: (values: { name: string }) => Promise<unknown> }) {
  const form = useForm({ initial: { name: 'Ada' }, onSubmit });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label="Name">
      <input aria-label="Your name" {...form.form.register('name')} />
      <Button type="submit" isLoading={form.isSubmitting}>Save</Button>
    </form>
  );
}

describe('Button while busy', () => {
  it('keeps the focus on Save while the form is sent, and says it is busy rather than disabled', async () => {
    const save = pendingSave();
    render(<NameForm onSubmit={save.onSubmit} />);
    const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    button.focus();
    await act(async () => { fireEvent.click(button); });
    expect(save.onSubmit).toHaveBeenCalledTimes(1);
    // A disabled button cannot hold the focus in a browser: it must stay enabled and only say it is unavailable.
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(document.activeElement).toBe(button);
    await act(async () => { save.finish(); });
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('does not send the form a second time when Save is pressed again while it is sent', async () => {
    const save = pendingSave();
    render(<NameForm onSubmit={save.onSubmit} />);
    const button = screen.getByRole('button', { name: 'Save' });
    await act(async () => { fireEvent.click(button); });
    await act(async () => { fireEvent.click(button); fireEvent.click(button); });
    expect(save.onSubmit).toHaveBeenCalledTimes(1);
    await act(async () => { save.finish(); });
    await act(async () => { fireEvent.click(button); });
    expect(save.onSubmit).toHaveBeenCalledTimes(2);
  });

  it('ignores a press while busy and hands the next one on once it is done', () => {
    const onClick = vi.fn();
    const { rerender } = render(<Button isLoading onClick={onClick}>Export CSV</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(onClick).not.toHaveBeenCalled();
    rerender(<Button onClick={onClick}>Export CSV</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
