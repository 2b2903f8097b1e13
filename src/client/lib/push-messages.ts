// Issue 29: what the service worker tells an open window about pushes (sw/sw.ts).
// - PUSH_OPEN: a pushed notification was clicked and this window was chosen to show it: open its link
//   here (no reload) and mark it read, as a click in the bell would. A window the click opened is already
//   there: it only marks it read. It gets the message after it says PUSH_LISTENING, which every window
//   says when it starts listening (the worker answers only a window a click just opened).
// - PUSH_RECEIVED: a push arrived while this window had the focus, so no system notification was shown
//   (the live channel's pop-up tells of it); if the bell does not have it yet (a dropped socket), it loads afresh.
import type { AccountType } from '../../shared/routes';
import { auth } from '../stores/auth';
import { openUrl } from './navigation';

interface PushMessage { type?: string; id?: string; url?: string; account?: AccountType }

let isListening = false;

export function listenToPushMessages(): void {
  if (isListening || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  isListening = true;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const message = (event.data ?? {}) as PushMessage;
    const account = message.account === 'partner' ? 'partner' : 'app';
    const isSignedIn = !!auth[account].token;
    if (message.type === 'PUSH_OPEN' && typeof message.url === 'string') {
      if (message.url !== `${location.pathname}${location.search}${location.hash}`) openUrl(message.url);
      const { id, url } = message;
      if (id && isSignedIn) void import('./unread').then((unread) => unread.markRead(account, { id, data: { title: '', message: '', url } }));
    } else if (message.type === 'PUSH_RECEIVED' && message.id && isSignedIn) {
      const { id } = message;
      void import('./unread').then((unread) => {
        if (!unread.unreadOf(account).unread.some((item) => item.id === id)) void unread.refetchUnread(account);
      });
    }
  });
  navigator.serviceWorker.controller?.postMessage({ type: 'PUSH_LISTENING' });
}
