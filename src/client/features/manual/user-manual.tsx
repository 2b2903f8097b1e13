// The user manual (issue 13, spec route /user-manual, public): one section per screen, rendered from
// docs/manual at build time; searching filters the sections as you type and highlights the words.
import { useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { sections, type ManualSection } from 'virtual:user-manual';
import { auth } from '../../stores/auth';
import { Icon } from '../../ui/icons';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A query word matches at the start of a word ("po" finds "PO" and "policies", not "support"). */
const wordPattern = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}`, 'iu');

/** Case-insensitive: every word of the query must begin a word of the section (area, title or text). */
export function matchesQuery(section: Pick<ManualSection, 'title' | 'text' | 'area'>, words: readonly string[]): boolean {
  const haystack = `${section.area} ${section.title} ${section.text}`;
  return words.every((word) => wordPattern(word).test(haystack));
}

const wordsOf = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);

/** Wraps each occurrence of the words in the element's text nodes in <mark>. */
function highlight(root: HTMLElement, words: readonly string[]) {
  if (!words.length) return;
  // One capturing group: split() puts the matches at the odd indexes.
  const pattern = new RegExp(`((?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')}))`, 'giu');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  for (const node of nodes) {
    const text = node.data;
    pattern.lastIndex = 0;
    if (!pattern.test(text)) continue;
    const fragment = document.createDocumentFragment();
    text.split(pattern).forEach((part, index) => {
      if (!part) return;
      if (index % 2 === 1) {
        const mark = document.createElement('mark');
        mark.className = 'rounded bg-amber-200 px-0.5 text-slate-900 dark:bg-amber-400/80';
        mark.textContent = part;
        fragment.append(mark);
      } else fragment.append(part);
    });
    node.replaceWith(fragment);
  }
}

/** Our own Markdown, from the repository (never user input), with the matches marked. */
function SectionBody({ html, words }: { html: string; words: readonly string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!ref.current) return;
    ref.current.innerHTML = html;
    highlight(ref.current, words);
  }, [html, words]);
  return (
    <div ref={ref} className={[
      'space-y-3 text-sm leading-6 text-slate-700 dark:text-slate-300',
      '[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5 [&_strong]:font-semibold [&_strong]:text-slate-900 dark:[&_strong]:text-white',
      '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800',
    ].join(' ')} />
  );
}

export default function UserManual() {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const words = useMemo(() => wordsOf(deferred), [deferred]);
  const visible = useMemo(() => sections.filter((section) => matchesQuery(section, words)), [words]);
  const areas = useMemo(() => [...new Set(visible.map((section) => section.area))], [visible]);
  const app = useSnapshot(auth.app);
  const partner = useSnapshot(auth.partner);
  const back = app.isAuthenticated ? { href: '/dashboard', label: 'Back to the dashboard' }
    : partner.isAuthenticated ? { href: '/partner/dashboard', label: 'Back to the partner portal' } : { href: '/', label: 'Sign in' };

  return (
    <div className="w-full max-w-5xl self-start">
      <a href={back.href} className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400">
        <Icon name="chevron-down" className="size-4 rotate-90" />{back.label}
      </a>
      <header className="mt-4 mb-6">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">PMO User Manual</h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">What each screen is for and how to do the common tasks.</p>
        <div className="relative mt-4 max-w-xl">
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <label htmlFor="manual-search" className="sr-only">Search the manual</label>
          <input id="manual-search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} autoComplete="off"
            placeholder="Search the manual: contract, leave, overdue…"
            className="h-11 w-full rounded-lg border-0 bg-white pr-3 pl-9 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-500 dark:bg-slate-900 dark:text-white dark:ring-slate-700" />
        </div>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400" role="status" aria-live="polite">
          {words.length ? `${visible.length} of ${sections.length} sections match “${deferred.trim()}”.` : `${sections.length} sections.`}
        </p>
      </header>

      <div className="grid gap-8 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Manual contents" className="hidden lg:block">
          <div className="sticky top-6 max-h-[calc(100vh-3rem)] space-y-4 overflow-y-auto pr-2 text-sm">
            {areas.map((area) => (
              <div key={area}>
                <p className="font-semibold text-slate-900 dark:text-white">{area}</p>
                <ul className="mt-1 space-y-1 border-l border-slate-200 dark:border-slate-800">
                  {visible.filter((s) => s.area === area).map((section) => (
                    <li key={section.id}>
                      <a href={`#${section.id}`} className="-ml-px block border-l border-transparent pl-3 text-slate-600 hover:border-slate-400 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white">{section.title}</a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </nav>

        <div className="min-w-0 space-y-8">
          {!visible.length && (
            <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
              <p className="font-medium text-slate-900 dark:text-white">Nothing in the manual matches “{deferred.trim()}”.</p>
              <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Try another word, such as the name of a screen.</p>
              <button type="button" onClick={() => setQuery('')} className="mt-4 rounded-lg px-3 py-2 text-sm font-medium text-indigo-600 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400 dark:ring-slate-700 dark:hover:bg-slate-800">Clear the search</button>
            </div>
          )}
          {areas.map((area) => (
            <section key={area} aria-label={area} className="space-y-4">
              <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{area}</h2>
              {visible.filter((s) => s.area === area).map((section) => (
                <article key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}
                  className="scroll-mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-xs dark:border-slate-800 dark:bg-slate-900">
                  <h3 id={`${section.id}-title`} className="mb-3 text-base font-semibold text-slate-900 dark:text-white">{section.title}</h3>
                  <SectionBody html={section.html} words={words} />
                </article>
              ))}
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
