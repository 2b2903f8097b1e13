// @vitest-environment jsdom
// Rich-text fields: the server keeps only the allowlist (whatever the client sends), an emptied editor
// is an empty value, and the editor emits its HTML debounced 300 ms (spec §9) and at once on blur.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { sanitiseRichText, sanitiseRichTextFields } from '../../src/server/lib/rich-text';
import { RICH_TEXT_DEBOUNCE_MS, RichTextEditor, richTextToPlain } from '../../src/client/ui/rich-text-editor';

afterEach(() => { cleanup(); vi.useRealTimers(); });

describe('sanitiseRichText (server)', () => {
  it('keeps formatting and safe links, drops scripts, handlers, styles and unsafe schemes', () => {
    expect(sanitiseRichText('<p>Read <strong>this</strong> <em>now</em></p><ul><li>one</li></ul>'))
      .toBe('<p>Read <strong>this</strong> <em>now</em></p><ul><li>one</li></ul>');
    expect(sanitiseRichText('<p onclick="x()" style="color:red">Hi<script>alert(1)</script><img src=x onerror=alert(1)></p>')).toBe('<p>Hi</p>');
    expect(sanitiseRichText('<a href="javascript:alert(1)">x</a>')).toBe('<a target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitiseRichText('<a href="https://example.com/policy">policy</a>'))
      .toBe('<a href="https://example.com/policy" target="_blank" rel="noopener noreferrer">policy</a>');
    expect(sanitiseRichText('<iframe src="https://evil"></iframe><p>ok</p>')).toBe('<p>ok</p>');
  });

  it('makes an editor left with markup but no words an empty value', () => {
    expect(sanitiseRichText('<p><br></p>')).toBe('');
    expect(sanitiseRichText('  <div> </div> ')).toBe('');
  });

  it('cleans only the rich-text fields of a body', () => {
    const body: Record<string, unknown> = { description: '<p>x<script>1</script></p>', title: '<b>kept as typed</b>' };
    sanitiseRichTextFields({ description: { label: 'Description', input: 'richtext' }, title: { label: 'Title', input: 'text' } }, body);
    expect(body).toEqual({ description: '<p>x</p>', title: '<b>kept as typed</b>' });
  });
});

describe('RichTextEditor', () => {
  it('emits its HTML 300 ms after the last input, and at once on blur', () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<RichTextEditor name="description" label="Description" value="<p>Start</p>" onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Description' });
    expect(box.innerHTML).toBe('<p>Start</p>');
    box.innerHTML = '<p>Start here</p>';
    fireEvent.input(box);
    act(() => { vi.advanceTimersByTime(RICH_TEXT_DEBOUNCE_MS - 1); });
    expect(onChange).not.toHaveBeenCalled();
    act(() => { vi.advanceTimersByTime(1); });
    expect(onChange).toHaveBeenCalledWith('<p>Start here</p>');
    box.innerHTML = '<p>Start here, then save</p>';
    fireEvent.input(box);
    fireEvent.blur(box);
    expect(onChange).toHaveBeenLastCalledWith('<p>Start here, then save</p>');
    expect(screen.getByRole('toolbar', { name: 'Description formatting' })).toBeTruthy();
  });

  it('shows rich text as words in lists', () => {
    expect(richTextToPlain('<p>One <strong>two</strong></p><ul><li>three</li></ul>')).toBe('One two three');
  });
});
