// @vitest-environment jsdom
// spec §1 theme start-up and storage; spec §2/§9 sidebar breakpoint behaviour.
import { beforeEach, describe, expect, it, vi } from 'vitest';

async function freshUi(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  vi.resetModules();
  return import('../../src/client/stores/ui');
}

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  window.matchMedia = ((query: string) => ({ matches: false, media: query })) as unknown as typeof window.matchMedia;
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
    window.matchMedia = ((query: string) => ({ matches: query.includes('dark'), media: query })) as unknown as typeof window.matchMedia;
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
