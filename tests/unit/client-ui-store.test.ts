// @vitest-environment jsdom
// spec §1 theme start-up and storage; spec §2/§9 sidebar breakpoint behaviour.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

async function freshUi(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  vi.resetModules();
  return import('../../src/client/stores/ui');
}

/** A media query list that matches `matches`, with the listener methods headless UI calls on it. */
const mediaList = (matches: (query: string) => boolean) => ((query: string) => ({
  matches: matches(query), media: query, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {},
})) as unknown as typeof window.matchMedia;

// The unit files share a worker (isolate: false): the next file's dialogs must find the window as jsdom
// made it (which has no matchMedia), not this stub.
const jsdomMatchMedia = Object.getOwnPropertyDescriptor(window, 'matchMedia');
afterAll(() => {
  if (jsdomMatchMedia) Object.defineProperty(window, 'matchMedia', jsdomMatchMedia);
  else delete (window as { matchMedia?: unknown }).matchMedia;
});

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  window.matchMedia = mediaList(() => false);
});

describe('ui store', () => {
  it('starts the sidebar collapsed below 769 px and open from 769 px', async () => {
    expect((await freshUi(768)).ui.sidebarCollapsed).toBe(true);
    expect((await freshUi(769)).ui.sidebarCollapsed).toBe(false);
  });

  it('collapses the sidebar when an item is chosen on a narrow window only', async () => {
    const narrow = await freshUi(600);
    narrow.ui.sidebarCollapsed = false;
    narrow.onSidebarItemChosen();
    expect(narrow.ui.sidebarCollapsed).toBe(true);
    const wide = await freshUi(1366);
    wide.onSidebarItemChosen();
    expect(wide.ui.sidebarCollapsed).toBe(false);
  });

  it('starts from the stored theme, else the system preference', async () => {
    localStorage.setItem('theme', 'dark');
    expect((await freshUi(1366)).ui.theme).toBe('dark');
    localStorage.clear();
    window.matchMedia = mediaList((query) => query.includes('dark'));
    expect((await freshUi(1366)).ui.theme).toBe('dark');
    localStorage.setItem('theme', 'light');
    expect((await freshUi(1366)).ui.theme).toBe('light');
  });

  it('stores the choice as dark or light and sets the class on <html>', async () => {
    const store = await freshUi(1366);
    store.setTheme('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    store.toggleTheme();
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});
