// The editor of `richtext` fields: a contentEditable area with a small toolbar. It emits HTML, debounced
// 300 ms (spec §9), and at once when it loses focus, so a Save click never misses the last keystrokes.
// The server keeps only its allowlist of tags (src/server/lib/rich-text.ts), whatever is pasted here.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './cx';
import { FieldShell, inputClass, invalidInputClass } from './field';

export const RICH_TEXT_DEBOUNCE_MS = 300;

interface RichTextEditorProps {
  name: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  errors?: string[];
  hint?: ReactNode;
  required?: boolean;
}

const tools: { command: string; label: string; text: string; className?: string }[] = [
  { command: 'bold', label: 'Bold', text: 'B', className: 'font-bold' },
  { command: 'italic', label: 'Italic', text: 'I', className: 'italic' },
  { command: 'insertUnorderedList', label: 'Bulleted list', text: '• List' },
  { command: 'insertOrderedList', label: 'Numbered list', text: '1. List' },
  { command: 'createLink', label: 'Link', text: 'Link' },
];

export function RichTextEditor({ name, label, value, onChange, errors, hint, required }: RichTextEditorProps) {
  const id = `field-${name}-${useId()}`;
  const area = useRef<HTMLDivElement>(null);
  const emitted = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const invalid = !!errors?.length;

  // The DOM is the editor's state: only a value that did not come from here (a reset, a loaded record) replaces it.
  useEffect(() => {
    if (area.current && value !== emitted.current && area.current.innerHTML !== value) area.current.innerHTML = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const flush = () => {
    clearTimeout(timer.current);
    const html = area.current?.innerHTML ?? '';
    if (html === emitted.current) return;
    emitted.current = html;
    onChange(html);
  };
  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, RICH_TEXT_DEBOUNCE_MS);
  };
  const run = (command: string) => {
    area.current?.focus();
    if (command === 'createLink') {
      const url = window.prompt('Link address (https://…)');
      if (!url) return;
      document.execCommand('createLink', false, url);
    } else {
      document.execCommand(command);
    }
    schedule();
  };

  return (
    <FieldShell id={id} label={label} errors={errors} hint={hint} required={required}>
      <div className={cx(inputClass, 'p-0', invalid && invalidInputClass)} data-field={name}>
        <div role="toolbar" aria-label={`${label} formatting`} aria-controls={id}
          className="flex flex-wrap gap-1 border-b border-slate-200 px-2 py-1.5 dark:border-slate-700">
          {tools.map((tool) => (
            <button key={tool.command} type="button" title={tool.label} aria-label={tool.label}
              // Keeps the selection in the text while the button is pressed.
              onMouseDown={(event) => event.preventDefault()} onClick={() => run(tool.command)}
              className={cx('rounded px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100 focus-visible:outline-2 dark:text-slate-200 dark:hover:bg-slate-800', tool.className)}>
              {tool.text}
            </button>
          ))}
        </div>
        <div ref={area} id={id} role="textbox" aria-multiline="true" aria-label={label} contentEditable suppressContentEditableWarning
          aria-invalid={invalid || undefined} aria-required={required || undefined}
          aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined}
          onInput={schedule} onBlur={flush}
          className="rich-text min-h-28 px-3 py-2 leading-6 focus:outline-none" />
      </div>
    </FieldShell>
  );
}

/** Server-sanitised rich text, shown as formatted text. */
export function RichText({ html }: { html: string }) {
  return <div className="rich-text leading-6" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The words of rich text, for list cells and titles. */
export function richTextToPlain(html: string): string {
  // Blocks and line breaks become spaces, so "<li>one</li><li>two</li>" reads "one two".
  const spaced = html.replace(/<br\s*\/?>|<\/(p|li|h3|h4|blockquote|pre)>/gi, '$& ');
  const text = typeof DOMParser === 'undefined' ? spaced.replace(/<[^>]*>/g, ' ') : new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}
