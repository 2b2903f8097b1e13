// spec §1: the theme starts dark if 'dark' is stored, or if nothing is stored and the system prefers dark.
export type Theme = 'dark' | 'light';
export const THEME_STORAGE_KEY = 'theme';

export function initialTheme(stored: string | null, systemPrefersDark: boolean): Theme {
  if (stored === 'dark') return 'dark';
  if (stored === 'light') return 'light';
  return systemPrefersDark ? 'dark' : 'light';
}
