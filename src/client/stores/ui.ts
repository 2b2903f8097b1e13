// Theme (spec §1) and sidebar state (spec §2, §9): UI state of this browser, not server state
// (server state lives in the query cache, lib/query.ts).
import { proxy } from 'valtio';
import { initialTheme, THEME_STORAGE_KEY, type Theme } from '../../shared/theme';

/** spec §9: below 769 px the sidebar starts collapsed and collapses when an item is chosen. */
export const MOBILE_BREAKPOINT = 769;
export const SIDEBAR_WIDTH = 250;

export const isMobileWidth = () => typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT;

function readStoredTheme(): string | null {
  try { return localStorage.getItem(THEME_STORAGE_KEY); } catch { return null; }
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

export const ui = proxy({
  theme: (typeof window === 'undefined' ? 'light' : initialTheme(readStoredTheme(), systemPrefersDark())) as Theme,
  sidebarCollapsed: isMobileWidth(),
});

export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

export function setTheme(theme: Theme) {
  ui.theme = theme;
  try { localStorage.setItem(THEME_STORAGE_KEY, theme); } catch { /* storage blocked: the choice lasts this visit */ }
  applyTheme(theme);
}

export const toggleTheme = () => setTheme(ui.theme === 'dark' ? 'light' : 'dark');

export function toggleSidebar() {
  ui.sidebarCollapsed = !ui.sidebarCollapsed;
}

/** spec §2: choosing an item on a narrow window collapses the sidebar. */
export function onSidebarItemChosen() {
  if (isMobileWidth()) ui.sidebarCollapsed = true;
}
