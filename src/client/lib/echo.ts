// The one Laravel Echo client of a tab (ARCHITECTURE "Realtime", spec §4 "Real-time events", §7).
// Created after login in the foreground tab (a background tab connects when it becomes visible),
// re-created when the token changes, disconnected on logout. pusher-js and laravel-echo are loaded
// with a dynamic import, so the login screen never downloads them.
import { subscribe } from 'valtio';
import type { AccountType } from '../../shared/routes';
import type { Announcement, NotificationItem } from '../../shared/schemas/auth';
import { auth, setAnnouncement } from '../stores/auth';
import { announceChange } from './changes';
import { changeOfUrl, queryClient, queryKeys } from './query';
import { appConfig } from './config';
import { type RealtimeMessage, showRealtimeToast } from './realtime-toast';
import { pushUnread, receiveUnread, refetchUnread } from './unread';

// Channel and event names as the server broadcasts them; Echo adds the `private-` prefix and its
// default namespace `App.Events` (-> `App\Events\TimeSheetUploadEvent`).
export const timeSheetUploadChannel = (userId: number) => `time-sheet-upload-event.${userId}`;
export const partnerPreBillingUploadChannel = (userId: number) => `partner-pre-billing-upload-event.${userId}`;
/**
 * Private (`private-announcement-alert`): staff may join it, an anonymous socket may not. Partners have
 * their own (issue 20), which carries only the announcements meant for them.
 */
export const ANNOUNCEMENT_CHANNEL = 'announcement-alert';
export const PARTNER_ANNOUNCEMENT_CHANNEL = 'partner-announcement-alert';
/** Laravel's per-account notification channel (`private-App.Models.User.{id}` as the server names it). */
export const accountNotificationChannel = (account: AccountType, id: number) =>
  `App.Models.${account === 'partner' ? 'Partner' : 'User'}.${id}`;

/** spec §3 "Real-time notification". */
export interface TimeSheetUploadEvent { message: RealtimeMessage; user: { id: number; name?: string; parent_id: number | null } }
export interface PartnerPreBillingUploadEvent { message: RealtimeMessage; recipients: { id: number }[] }
export interface AnnouncementMessageEvent { message: Announcement }
/** What Echo's `.notification()` receives: a stored notification (ARCHITECTURE "Notifications"). */
export interface BroadcastNotification { id: string; type: string; title: string; message: string; url: string | null }

/** The part of a page location the socket address follows. */
export type PageLocation = Pick<Location, 'hostname' | 'port' | 'protocol'>;

/**
 * Echo options for the Reverb-compatible server on this page's own origin: ws on http pages, wss on
 * https pages (forceTLS follows the protocol). A fresh `auth` object each time: laravel-echo shares its
 * default one between instances, so a new token would otherwise leak into an old instance or back.
 */
export function echoOptions(token: string, key: string, location: PageLocation) {
  const port = location.port ? Number(location.port) : null;
  return {
    broadcaster: 'reverb' as const,
    key,
    wsHost: location.hostname,
    wsPort: port ?? 80,
    wssPort: port ?? 443,
    forceTLS: location.protocol === 'https:',
    enabledTransports: ['ws', 'wss'] as ('ws' | 'wss')[],
    authEndpoint: '/api/broadcasting/auth',
    auth: { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
    // Our HTTP wrapper is redaxios: no axios / jQuery / Turbo interceptors to install.
    withoutInterceptors: true,
  };
}

/** What the lifecycle needs of an Echo instance; the real one has much more. */
export interface EchoLike {
  private(channel: string): PrivateListenerChannel;
  channel(channel: string): ListenerChannel;
  disconnect(): void;
}
interface ListenerChannel { listen(event: string, callback: (payload: never) => void): ListenerChannel }
/** Echo's `.notification(cb)` listens for `Illuminate\Notifications\Events\BroadcastNotificationCreated`. */
interface PrivateListenerChannel extends ListenerChannel {
  notification(callback: (payload: never) => void): PrivateListenerChannel;
}

export type EchoFactory = (options: ReturnType<typeof echoOptions>) => Promise<EchoLike>;

/** Loads laravel-echo and pusher-js on first use (a separate chunk) and builds an instance. */
export const createEcho: EchoFactory = async (options) => {
  const [{ default: Echo }, { default: Pusher }] = await Promise.all([import('laravel-echo'), import('pusher-js')]);
  return new Echo({ ...options, Pusher }) as unknown as EchoLike;
};

// --- handlers (spec §4) -------------------------------------------------------------------------

const currentUserId = (account: AccountType) => auth[account].user?.id ?? null;

let liveSequence = 0;

/**
 * The stored notification's id when the event carries it (so an entry a coalesced notification updated is
 * replaced, not doubled); else a local one keeps the bell's list keyed until the refetch.
 */
function toNotificationItem(message: RealtimeMessage & { id?: unknown }): NotificationItem {
  liveSequence += 1;
  return {
    id: typeof message.id === 'string' && message.id ? message.id : `live-${Date.now()}-${liveSequence}`,
    type: 'App\\Notifications\\TimeSheetUploadNotification',
    data: { title: message.title, message: message.message, url: message.url ?? null },
    read_at: null,
    created_at: new Date().toISOString(),
  };
}

/** The notification page on screen takes a new notification in without a reload. */
const notificationsChanged = () => { void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() }); };

/** A named event is about its resource; the record is the one its url opens, when the url is that resource's. */
function namedChange(resource: string, url: string | null | undefined) {
  const fromUrl = changeOfUrl(url, 'live');
  return { resource, id: fromUrl?.resource === resource ? fromUrl.id : null, origin: 'live' as const };
}

const isMessage = (value: unknown): value is RealtimeMessage =>
  !!value && typeof value === 'object' && typeof (value as RealtimeMessage).title === 'string';

/** spec §4: when the uploader's parent_id is the current user, toast and append the notification. */
export function onTimeSheetUpload(account: AccountType, event: TimeSheetUploadEvent): void {
  const me = currentUserId(account);
  if (me === null || !event || event.user?.parent_id !== me || !isMessage(event.message)) return;
  showRealtimeToast(event.message);
  pushUnread(account, toNotificationItem(event.message));
  // A list of time sheets on screen shows the new one without a reload (only the time sheets refetch).
  announceChange(namedChange('time-sheet', event.message.url));
  notificationsChanged();
  // The row was stored before the broadcast; a quiet reload swaps the local item for it, so that
  // opening it from the bell marks the real notification read.
  void refetchUnread(account);
}

/** spec §4: when addressed to the current user, toast and refetch the unread notifications. */
export function onPartnerPreBillingUpload(account: AccountType, event: PartnerPreBillingUploadEvent): void {
  const me = currentUserId(account);
  if (me === null || !event || !Array.isArray(event.recipients) || !event.recipients.some((r) => r?.id === me) || !isMessage(event.message)) return;
  showRealtimeToast(event.message);
  // An open list or detail of pre-billings shows the new (or corrected) statement without a reload.
  announceChange(namedChange('pre-billing', event.message.url));
  notificationsChanged();
  void refetchUnread(account);
}

/**
 * A stored notification broadcast on the account's own channel: toast with the chime, add it to the
 * bell under its real id (so opening it marks that row read) and let the record it names refetch. It is never
 * one of the spec §4 named events' rows, so nothing else announces it.
 */
export function onNotification(account: AccountType, event: BroadcastNotification): void {
  if (currentUserId(account) === null || !event || typeof event.id !== 'string' || !event.id || !isMessage(event)) return;
  const message: RealtimeMessage = {
    title: event.title,
    message: typeof event.message === 'string' ? event.message : '',
    url: typeof event.url === 'string' ? event.url : null,
  };
  showRealtimeToast(message);
  receiveUnread(account, {
    id: event.id,
    type: typeof event.type === 'string' ? event.type : '',
    data: message,
    read_at: null,
    created_at: new Date().toISOString(),
  });
  // The record it is about (its url) and that resource's lists refetch; nothing else does.
  const change = changeOfUrl(message.url, 'live');
  if (change) announceChange(change);
  notificationsChanged();
}

/** spec §4: the marquee follows the announcement (status, message) in every open tab. */
export function onAnnouncementMessage(account: AccountType, event: AnnouncementMessageEvent): void {
  const message = event?.message;
  if (!message || (message.status !== 'on' && message.status !== 'off')) return;
  void setAnnouncement(account, { status: message.status, message: typeof message.message === 'string' ? message.message : '' });
}

/**
 * Binds the handlers of spec §4 and the account's own notification channel (both account types).
 * The two named private channels notify internal (app) users only.
 */
export function listenForEvents(echo: EchoLike, account: AccountType, userId: number): void {
  echo.private(account === 'partner' ? PARTNER_ANNOUNCEMENT_CHANNEL : ANNOUNCEMENT_CHANNEL)
    .listen('AnnouncementMessageEvent', (event: AnnouncementMessageEvent) => onAnnouncementMessage(account, event));
  echo.private(accountNotificationChannel(account, userId))
    .notification((event: BroadcastNotification) => onNotification(account, event));
  if (account !== 'app') return;
  echo.private(timeSheetUploadChannel(userId))
    .listen('TimeSheetUploadEvent', (event: TimeSheetUploadEvent) => onTimeSheetUpload(account, event));
  echo.private(partnerPreBillingUploadChannel(userId))
    .listen('PartnerPreBillingUploadEvent', (event: PartnerPreBillingUploadEvent) => onPartnerPreBillingUpload(account, event));
}

// --- lifecycle ----------------------------------------------------------------------------------

export interface RealtimeEnvironment {
  createEcho: EchoFactory;
  document: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  location: PageLocation;
  pusherKey: string | null;
}

const browserEnvironment = (): RealtimeEnvironment => ({
  createEcho,
  document,
  location: window.location,
  pusherKey: appConfig.pusherKey,
});

/** The running controller: one Echo per tab, whichever layout started it last. */
let stopActive: (() => void) | null = null;
let hasWarnedNoKey = false;

/**
 * Keeps one Echo instance in step with the account's auth state; returns the function that stops it
 * (and disconnects). Called by the authenticated layout.
 */
export function startRealtime(account: AccountType, environment: RealtimeEnvironment = browserEnvironment()): () => void {
  stopActive?.();
  let connection: { token: string; echo: EchoLike } | null = null;
  let connectingToken: string | null = null;
  let isStopped = false;

  const tokenNow = () => {
    const state = auth[account];
    return state.isAuthenticated && state.token && state.user ? state.token : null;
  };

  const disconnect = () => {
    connection?.echo.disconnect();
    connection = null;
  };

  const sync = async () => {
    if (isStopped) return;
    const token = tokenNow();
    if (connection && connection.token !== token) disconnect();
    if (!token || connection || connectingToken === token) return;
    if (environment.document.visibilityState !== 'visible') return; // a background tab waits until it is shown
    if (!environment.pusherKey) {
      if (!hasWarnedNoKey) console.warn('Realtime is off: no Pusher key in the app config.');
      hasWarnedNoKey = true;
      return;
    }
    connectingToken = token;
    try {
      const echo = await environment.createEcho(echoOptions(token, environment.pusherKey, environment.location));
      // Logged out, stopped or given another token while the client loaded: this one is stale.
      if (isStopped || tokenNow() !== token || connectingToken !== token) {
        echo.disconnect();
        return;
      }
      listenForEvents(echo, account, auth[account].user!.id);
      connection = { token, echo };
    } catch (error) {
      console.error('Could not start the realtime connection', error);
    } finally {
      if (connectingToken === token) connectingToken = null;
    }
  };

  const onVisibilityChange = () => { void sync(); };
  const unsubscribe = subscribe(auth[account], () => { void sync(); });
  environment.document.addEventListener('visibilitychange', onVisibilityChange);
  void sync();

  const stop = () => {
    if (isStopped) return;
    isStopped = true;
    unsubscribe();
    environment.document.removeEventListener('visibilitychange', onVisibilityChange);
    disconnect();
    if (stopActive === stop) stopActive = null;
  };
  stopActive = stop;
  return stop;
}
