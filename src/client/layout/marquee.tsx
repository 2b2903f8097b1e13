// spec §1: the announcement banner scrolls when the announcement status is on.
import { Icon } from '../ui/icons';

export function Marquee({ message }: { message: string }) {
  return (
    <div role="region" aria-label="Announcement" className="marquee flex items-center gap-3 overflow-hidden border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-500/20 dark:bg-amber-500/10 dark:text-amber-200">
      <Icon name="megaphone" className="size-4 shrink-0" />
      <div className="min-w-0 flex-1 overflow-hidden" tabIndex={0}>
        <span className="marquee-track">{message}</span>
      </div>
    </div>
  );
}
