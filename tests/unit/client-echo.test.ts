// @vitest-environment jsdom
// The Echo client's lifecycle (one instance, foreground tab, token changes, logout) and the handlers of
// spec §4 "Real-time events". The socket itself is proven in tests/realtime and tests/e2e/realtime.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  echoOptions, onAnnouncementMessage, onNotification, onPartnerPreBillingUpload, onTimeSheetUpload, startRealtime,
  type EchoLike, type RealtimeEnvironment,
} from '../../src/client/lib/echo';
import { NOTIFICATION_SOUND_URL } from '../../src/client/lib/sound';
import { notify } from '../../src/client/lib/toast';
import { auth, clearAuth, hydrateAuth, storeLogin, storeMe } from '../../src/client/stores/auth';
import { markRead, refetchUnread, unreadOf } from '../../src/client/lib/unread';
import { onChange, type Change } from '../../src/client/lib/changes';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (token: string, id = 1): LoginResponse => ({
  data: { id, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: token,
  permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] },
  announcement: { status: 'off', message: '' },
  message: '', status: 'success',
});

/** A stand-in Echo that records what it was asked to listen to. */
class FakeEcho implements EchoLike {
  listened: string[] = [];
  handlers = new Map<string, (payload: never) => void>();
  isDisconnected = false;
  constructor(readonly token: string) {}
  private on(prefix: string, channel: string) {
    const self = this;
    const subscription = {
      listen(event: string, callback: (payload: never) => void) {
        self.listened.push(`${prefix}${channel}:${event}`);
        self.handlers.set(`${prefix}${channel}:${event}`, callback);
        return subscription;
      },
      // Echo's `.notification(cb)`: listens for BroadcastNotificationCreated on a private channel.
      notification(callback: (payload: never) => void) {
        self.listened.push(`${prefix}${channel}:.notification`);
        self.handlers.set(`${prefix}${channel}:.notification`, callback);
        return subscription;
      },
    };
    return subscription;
  }
  private(channel: string) { return this.on('private-', channel); }
  channel(channel: string) { return this.on('', channel); }
  disconnect() { this.isDisconnected = true; }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function fakeEnvironment(visibility: DocumentVisibilityState = 'visible') {
  const created: FakeEcho[] = [];
  const target = new EventTarget();
  const doc = {
    visibilityState: visibility,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  };
  const environment: RealtimeEnvironment = {
    createEcho: vi.fn(async (options) => {
      const echo = new FakeEcho(options.auth.headers.Authorization);
      created.push(echo);
      return echo;
    }),
    document: doc as RealtimeEnvironment['document'],
    location: { hostname: 'example.test', port: '8443', protocol: 'https:' },
    pusherKey: 'public-key',
  };
  const show = () => { doc.visibilityState = 'visible'; target.dispatchEvent(new Event('visibilitychange')); };
  return { environment, created, show };
}

let unreadAnswer: { data: unknown[]; meta: { total: number } } = { data: [], meta: { total: 0 } };
const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
  const url = String(input);
  if (url.includes('/api/notification')) return new Response(JSON.stringify(unreadAnswer), { status: 200 });
  return new Response('{}', { status: 200 });
});
const played: string[] = [];

beforeEach(async () => {
  unreadAnswer = { data: [], meta: { total: 0 } };
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  played.length = 0;
  vi.stubGlobal('Audio', class {
    volume = 1;
    constructor(readonly src: string) {}
    play() { played.push(this.src); return Promise.reject(new DOMException('autoplay refused', 'NotAllowedError')); }
  });
  await hydrateAuth();
  await clearAuth('app');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('echo options', () => {
  it('follows the page: wss with forceTLS on https, the page port, the bearer token', () => {
    const options = echoOptions('tok-1', 'key', { hostname: 'app.example.com', port: '', protocol: 'https:' });
    expect(options).toMatchObject({
      broadcaster: 'reverb', key: 'key', wsHost: 'app.example.com', wsPort: 80, wssPort: 443, forceTLS: true,
      enabledTransports: ['ws', 'wss'], authEndpoint: '/api/broadcasting/auth',
    });
    expect(options.auth.headers.Authorization).toBe('Bearer tok-1');
  });

  it('uses plain ws on an http page with an explicit port', () => {
    const options = echoOptions('tok', 'key', { hostname: '127.0.0.1', port: '5173', protocol: 'http:' });
    expect(options).toMatchObject({ wsHost: '127.0.0.1', wsPort: 5173, wssPort: 5173, forceTLS: false });
  });

  it('gives every instance its own auth headers object', () => {
    const location = { hostname: 'h', port: '', protocol: 'http:' };
    const first = echoOptions('a', 'key', location);
    const second = echoOptions('b', 'key', location);
    expect(first.auth).not.toBe(second.auth);
    expect(first.auth.headers.Authorization).toBe('Bearer a');
  });
});

describe('realtime lifecycle', () => {
  it('does not connect before login', async () => {
    const { environment } = fakeEnvironment();
    const stop = startRealtime('app', environment);
    await flush();
    expect(environment.createEcho).not.toHaveBeenCalled();
    stop();
  });

  it('connects once after login and listens to the channels of spec §4', async () => {
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('app', environment);
    await storeLogin('app', login('tok-1', 1));
    await flush();
    expect(created).toHaveLength(1);
    expect(created[0].token).toBe('Bearer tok-1');
    expect(created[0].listened).toEqual([
      'private-announcement-alert:AnnouncementMessageEvent',
      'private-App.Models.User.1:.notification',
      'private-time-sheet-upload-event.1:TimeSheetUploadEvent',
      'private-partner-pre-billing-upload-event.1:PartnerPreBillingUploadEvent',
    ]);
    // Unrelated store changes (the announcement) keep the same instance.
    auth.app.announcementAlert = { status: 'on', message: 'hi' };
    await flush();
    expect(created).toHaveLength(1);
    stop();
    expect(created[0].isDisconnected).toBe(true);
  });

  it('waits in a background tab and connects when the tab is shown', async () => {
    await storeLogin('app', login('tok-1'));
    const { environment, created, show } = fakeEnvironment('hidden');
    const stop = startRealtime('app', environment);
    await flush();
    expect(created).toHaveLength(0);
    show();
    await flush();
    expect(created).toHaveLength(1);
    stop();
  });

  it('re-creates the instance when the token changes', async () => {
    await storeLogin('app', login('tok-1'));
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('app', environment);
    await flush();
    await storeMe('app', { access_token: 'tok-2' });
    await flush();
    expect(created.map((echo) => echo.token)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(created[0].isDisconnected).toBe(true);
    expect(created[1].isDisconnected).toBe(false);
    stop();
  });

  it('disconnects on logout', async () => {
    await storeLogin('app', login('tok-1'));
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('app', environment);
    await flush();
    await clearAuth('app');
    await flush();
    expect(created[0].isDisconnected).toBe(true);
    stop();
  });

  it('drops an instance that finished loading after logout', async () => {
    await storeLogin('app', login('tok-1'));
    const { environment, created } = fakeEnvironment();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const factory = environment.createEcho;
    environment.createEcho = async (options) => { await gate; return factory(options); };
    const stop = startRealtime('app', environment);
    await clearAuth('app');
    release();
    await flush();
    await flush();
    expect(created).toHaveLength(1);
    expect(created[0].isDisconnected).toBe(true);
    stop();
  });

  it('keeps one instance per tab when a second layout starts', async () => {
    await storeLogin('app', login('tok-1'));
    const first = fakeEnvironment();
    startRealtime('app', first.environment);
    await flush();
    const second = fakeEnvironment();
    const stop = startRealtime('app', second.environment);
    await flush();
    expect(first.created[0].isDisconnected).toBe(true);
    expect(second.created).toHaveLength(1);
    stop();
  });

  it('listens to the partners\' announcement and its own Partner notification channel for a partner, not the named events', async () => {
    await storeLogin('partner', login('p-tok', 4));
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('partner', environment);
    await flush();
    expect(created[0].listened).toEqual([
      'private-partner-announcement-alert:AnnouncementMessageEvent',
      'private-App.Models.Partner.4:.notification',
    ]);
    stop();
    await clearAuth('partner');
  });
});

describe('real-time handlers', () => {
  const message = { title: 'Time sheet uploaded', message: 'Eve uploaded her March time sheet.', url: '/time-sheet' };

  it('toasts, chimes and appends a time sheet upload of a direct report', async () => {
    await storeLogin('app', login('tok', 1));
    unreadAnswer = { data: [{ id: 'n-1', type: 't', data: message, read_at: null, created_at: '2024-01-01' }], meta: { total: 1 } };
    const info = vi.spyOn(notify, 'info');
    onTimeSheetUpload('app', { message, user: { id: 2, name: 'Eve', parent_id: 1 } });
    expect(info).toHaveBeenCalledTimes(1);
    expect(played).toEqual([NOTIFICATION_SOUND_URL]);
    expect(unreadOf('app').count).toBe(1);
    expect(unreadOf('app').unread[0].data.title).toBe('Time sheet uploaded');
    // The stored row replaces the local one, so marking it read uses its real id.
    await vi.waitFor(() => expect(unreadOf('app').unread[0].id).toBe('n-1'));
    expect(unreadOf('app').count).toBe(1);
  });

  it('keys a time sheet upload by the stored id it carries, so an updated (coalesced) notification replaces its entry', async () => {
    await storeLogin('app', login('tok', 1));
    unreadAnswer = { data: [{ id: 'n-3', type: 't', data: message, read_at: null, created_at: '2024-01-01' }], meta: { total: 1 } };
    onTimeSheetUpload('app', { message: { ...message, id: 'n-3' } as typeof message, user: { id: 2, name: 'Eve', parent_id: 1 } });
    expect(unreadOf('app').unread.map((n) => n.id)).toEqual(['n-3']);
    onTimeSheetUpload('app', { message: { ...message, message: 'Eve uploaded it again.', id: 'n-3' } as typeof message, user: { id: 2, name: 'Eve', parent_id: 1 } });
    expect(unreadOf('app').unread.map((n) => n.id)).toEqual(['n-3']);
    expect(unreadOf('app').unread[0].data.message).toBe('Eve uploaded it again.');
    expect(unreadOf('app').count).toBe(1);
  });

  it('ignores a time sheet upload of someone else\'s report', async () => {
    await storeLogin('app', login('tok', 1));
    const info = vi.spyOn(notify, 'info');
    onTimeSheetUpload('app', { message, user: { id: 2, name: 'Eve', parent_id: 9 } });
    expect(info).not.toHaveBeenCalled();
    expect(played).toEqual([]);
    expect(unreadOf('app').count).toBe(0);
  });

  it('toasts and refetches the unread list for a pre-billing upload addressed to the user', async () => {
    await storeLogin('app', login('tok', 1));
    unreadAnswer = { data: [{ id: 'n-7', type: 't', data: message, read_at: null, created_at: '2024-01-01' }], meta: { total: 3 } };
    const info = vi.spyOn(notify, 'info');
    const changes: Change[] = [];
    const stop = onChange((change) => changes.push(change));
    onPartnerPreBillingUpload('app', { message, recipients: [{ id: 5 }, { id: 1 }] });
    stop();
    expect(info).toHaveBeenCalledTimes(1);
    // The pre-billings named by the event refetch (a live change: their lists, and the record its url names).
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ resource: 'pre-billing', origin: 'live' });
    expect(played).toHaveLength(1);
    await vi.waitFor(() => expect(unreadOf('app').count).toBe(3));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/notification?type=unread'))).toBe(true);
  });

  it('ignores a pre-billing upload addressed to others', async () => {
    await storeLogin('app', login('tok', 1));
    const info = vi.spyOn(notify, 'info');
    const changes: Change[] = [];
    const stop = onChange((change) => changes.push(change));
    onPartnerPreBillingUpload('app', { message, recipients: [{ id: 5 }] });
    stop();
    expect(info).not.toHaveBeenCalled();
    expect(changes).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('updates the announcement of the auth store', async () => {
    await storeLogin('app', login('tok', 1));
    onAnnouncementMessage('app', { message: { status: 'on', message: 'Office closed on Friday' } });
    expect(auth.app.announcementAlert).toEqual({ status: 'on', message: 'Office closed on Friday' });
    onAnnouncementMessage('app', { message: { status: 'off', message: '' } });
    expect(auth.app.announcementAlert.status).toBe('off');
  });

  it('ignores a malformed announcement', async () => {
    await storeLogin('app', login('tok', 1));
    onAnnouncementMessage('app', { message: { status: 'maybe', message: 'x' } } as never);
    expect(auth.app.announcementAlert.status).toBe('off');
  });
});

describe('stored notifications on the account channel', () => {
  const stored = {
    id: '6f1c2e0a-8d8e-4f5b-9a51-6a3c1c1d2e3f', type: 'App\\Notifications\\LeaveApplicationSubmitted',
    title: 'Leave application submitted', message: 'Eve asked for 3 days.', url: '/leave/4',
  };

  it('toasts with the chime, adds it to the bell under its real id and refreshes open lists', async () => {
    await storeLogin('app', login('tok', 1));
    const info = vi.spyOn(notify, 'info');
    const changes: Change[] = [];
    const stop = onChange((change) => changes.push(change));
    onNotification('app', stored);
    stop();
    expect(info).toHaveBeenCalledTimes(1);
    expect(played).toEqual([NOTIFICATION_SOUND_URL]);
    expect(unreadOf('app').count).toBe(1);
    expect(unreadOf('app').unread[0]).toMatchObject({
      id: stored.id, type: stored.type, read_at: null,
      data: { title: stored.title, message: stored.message, url: '/leave/4' },
    });
    // Only what its url names refetches: that resource's lists and record.
    expect(changes).toEqual([{ resource: 'leave', id: '4', origin: 'live' }]);
    // Its id is the stored row's: no refetch is needed to swap it.
    expect(fetchMock).not.toHaveBeenCalled();

    // Opening it from the bell marks that very row read.
    expect(await markRead('app', unreadOf('app').unread[0])).toBe('/leave/4');
    expect(fetchMock.mock.calls.some(([url, init]) =>
      String(url).endsWith(`/api/notification/${stored.id}`) && init?.method === 'PUT')).toBe(true);
    expect(unreadOf('app').count).toBe(0);
  });

  it('counts the same notification once', async () => {
    await storeLogin('app', login('tok', 1));
    onNotification('app', stored);
    onNotification('app', stored);
    expect(unreadOf('app').count).toBe(1);
    expect(unreadOf('app').unread).toHaveLength(1);
  });

  it('ignores a payload without an id or title', async () => {
    await storeLogin('app', login('tok', 1));
    const info = vi.spyOn(notify, 'info');
    onNotification('app', { ...stored, id: undefined } as never);
    onNotification('app', { ...stored, title: undefined } as never);
    onNotification('app', null as never);
    expect(info).not.toHaveBeenCalled();
    expect(unreadOf('app').count).toBe(0);
  });

  it('keeps one that arrives while an older unread load is in flight', async () => {
    await storeLogin('app', login('tok', 1));
    unreadAnswer = { data: [{ id: 'older', type: 't', data: { title: 'Old', message: '', url: null }, read_at: null, created_at: '2024-01-01' }], meta: { total: 1 } };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    fetchMock.mockImplementationOnce(async () => {
      const answer = JSON.stringify(unreadAnswer);
      await gate;
      return new Response(answer, { status: 200 });
    });
    const loading = refetchUnread('app');
    await flush();
    onNotification('app', stored);
    release();
    await loading;
    expect(unreadOf('app').unread.map((n) => n.id)).toEqual([stored.id, 'older']);
    expect(unreadOf('app').count).toBe(2);
  });

  it('reaches a partner through the handler bound on its Partner channel', async () => {
    await storeLogin('partner', login('p-tok', 4));
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('partner', environment);
    await flush();
    const info = vi.spyOn(notify, 'info');
    const handler = created[0].handlers.get('private-App.Models.Partner.4:.notification')!;
    handler({ ...stored, url: '/partner/invoice/2' } as never);
    expect(info).toHaveBeenCalledTimes(1);
    expect(played).toEqual([NOTIFICATION_SOUND_URL]);
    expect(unreadOf('partner').unread[0]).toMatchObject({ id: stored.id, data: { url: '/partner/invoice/2' } });
    expect(unreadOf('partner').count).toBe(1);
    stop();
    await clearAuth('partner');
  });

  it('does not count a named time-sheet event twice: it stays on its own channel and handler', async () => {
    await storeLogin('app', login('tok', 1));
    const { environment, created } = fakeEnvironment();
    const stop = startRealtime('app', environment);
    await flush();
    const info = vi.spyOn(notify, 'info');
    unreadAnswer = { data: [{ id: 'n-1', type: 't', data: { title: 'T', message: 'M', url: null }, read_at: null, created_at: '2024-01-01' }], meta: { total: 1 } };
    created[0].handlers.get('private-time-sheet-upload-event.1:TimeSheetUploadEvent')!(
      { message: { title: 'T', message: 'M', url: null }, user: { id: 2, parent_id: 1 } } as never);
    expect(info).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(unreadOf('app').unread.map((n) => n.id)).toEqual(['n-1']));
    expect(unreadOf('app').count).toBe(1);
    stop();
  });
});
