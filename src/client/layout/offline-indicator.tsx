// Issue 5: the layout says when the app is offline (navigator.onLine, the online/offline events, and a
// request that got no response or was answered from the service worker's cache: stores/pwa.ts).
import { useSnapshot } from 'valtio';
import { pwa } from '../stores/pwa';

export function OfflineIndicator() {
  const { online } = useSnapshot(pwa);
  if (online) return null;
  return (
    <span role="status" data-testid="offline-indicator" title="No connection: showing saved data; changes are queued and sent when you are back online."
      className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 max-sm:px-1.5 text-xs font-medium text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-500/15 dark:text-amber-200 dark:ring-amber-400/30">
      <svg viewBox="0 0 24 24" className="size-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M2 2l20 20" /><path d="M8.5 16.5a5 5 0 0 1 7 0" /><path d="M5 12.9a10 10 0 0 1 5.2-2.8" /><path d="M19 12.9a10 10 0 0 0-2.3-1.6" /><path d="M2 8.8a15 15 0 0 1 4.2-2.6" /><path d="M22 8.8a15 15 0 0 0-11.3-3.7" /><path d="M12 20h.01" />
      </svg>
      {/* A phone's header has no room for the word beside the outbox and the menus: the icon stays, the word is read out. */}
      <span className="max-sm:sr-only">Offline</span>
    </span>
  );
}
