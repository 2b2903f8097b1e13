import { useSnapshot } from 'valtio';
import { toggleTheme, ui } from '../stores/ui';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { GuestIcon } from '../ui/guest-icons';

export function ThemeToggle({ className }: { className?: string }) {
  const { theme } = useSnapshot(ui);
  const isDark = theme === 'dark';
  return (
    <button
      type="button"
      onClick={toggleTheme}
      // A fixed name with a pressed state, so a screen reader hears "Dark mode, pressed" and not a contradiction.
      aria-label="Dark mode"
      title={isDark ? 'Switch to light mode' : 'Switch to dark mode'}
      aria-pressed={isDark}
      data-testid="theme-toggle"
      className={cx('inline-flex size-9 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing, className)}
    >
      <GuestIcon name={isDark ? 'sun' : 'moon'} className="size-5" />
    </button>
  );
}
