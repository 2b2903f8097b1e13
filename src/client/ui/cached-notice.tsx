// Issue 5: a list or detail answered from the service worker's cache says when that data was fetched.
// Pass the time from api.get(url, { onCachedAt }) (null: fresh from the network, nothing shown).
const pad = (n: number) => String(n).padStart(2, '0');

export function CachedNotice({ fetchedAt, className }: { fetchedAt: Date | null; className?: string }) {
  if (!fetchedAt) return null;
  const sameDay = fetchedAt.toDateString() === new Date().toDateString();
  const time = `${pad(fetchedAt.getHours())}:${pad(fetchedAt.getMinutes())}`;
  const when = sameDay ? time : `${fetchedAt.getFullYear()}-${pad(fetchedAt.getMonth() + 1)}-${pad(fetchedAt.getDate())} ${time}`;
  return (
    <p role="status" data-testid="cached-notice"
      className={`rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-400/30 ${className ?? ''}`}>
      Offline — showing data from {when}
    </p>
  );
}
