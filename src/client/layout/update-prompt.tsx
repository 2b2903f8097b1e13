// Issue 5: a new version of the app is installed and waiting. It takes over only when the user
// clicks Reload (lib/pwa.ts applyUpdate), never mid-form. Toasts in the corner keep above it (styles.css: .update-prompt).
import { useSnapshot } from 'valtio';
import { pwa } from '../stores/pwa';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';

export function UpdatePrompt() {
  const { updateReady } = useSnapshot(pwa);
  if (!updateReady) return null;
  return (
    <div role="alert" data-testid="update-prompt"
      className="update-prompt fixed bottom-4 left-1/2 z-50 flex w-[calc(100%-2rem)] max-w-md -translate-x-1/2 items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
      <p className="flex-1 text-slate-700 dark:text-slate-200">A new version of the app is available.</p>
      <button type="button" onClick={() => { pwa.updateReady = false; }}
        className={cx('rounded-lg px-3 py-1.5 font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800', focusRing)}>
        Later
      </button>
      <button type="button" onClick={() => { void import('../lib/pwa').then((module) => module.applyUpdate()); }}
        className={cx('rounded-lg bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500', focusRing)}>
        Reload
      </button>
    </div>
  );
}
