// The toast of a real-time notification (spec §4): its title and message, with the chime.
import { Icon } from '../ui/icons';
import { openUrl } from './navigation';
import { playNotificationSound } from './sound';
import { notify } from './toast';

export interface RealtimeMessage { title: string; message: string; url: string | null }

function RealtimeToastBody({ title, message }: Pick<RealtimeMessage, 'title' | 'message'>) {
  return (
    <div className="min-w-0" data-testid="realtime-toast">
      <p className="font-semibold text-slate-900 dark:text-white">{title}</p>
      {message && <p className="mt-0.5 line-clamp-3 text-slate-600 dark:text-slate-300">{message}</p>}
    </div>
  );
}

/** spec §4: each new real-time toast comes with the notification sound; a click opens what it is about. */
export function showRealtimeToast({ title, message, url }: RealtimeMessage): void {
  notify.info(<RealtimeToastBody title={title} message={message} />, {
    icon: <Icon name="bell" className="size-5 text-indigo-500 dark:text-indigo-400" />,
    // The toast closes on click (spec §9); with a link it also opens the record, as the bell's entry would.
    ...(url ? { onClick: () => openUrl(url) } : {}),
  });
  playNotificationSound();
}
