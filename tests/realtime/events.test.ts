// @vitest-environment node
// Domain events: stored as notifications first, then broadcast under Laravel's event names.
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import type { Account } from '../../src/server/plugins/auth';
import { namedEventOf, raiseAnnouncementMessageEvent, type EventHost } from '../../src/server/realtime/events';
import { credentials, once, startServer, type TestServer } from './helpers';

let server: TestServer;
let database: Database;
let host: EventHost;
const echoes: Echo<'reverb'>[] = [];

const echoFor = (token: string) => {
  const echo = new Echo({
    broadcaster: 'reverb',
    key: credentials.key,
    wsHost: '127.0.0.1',
    wsPort: server.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    authEndpoint: `http://127.0.0.1:${server.port}/api/broadcasting/auth`,
    bearerToken: token,
    // Echo's default `auth` object is shared by every instance; a fresh one keeps each instance's token its own.
    auth: { headers: {} },
    Pusher,
  });
  echoes.push(echo);
  return echo;
};
const subscribedTo = (echo: Echo<'reverb'>, channel: string) =>
  once((done) => (echo.connector as unknown as { pusher: Pusher }).pusher.channel(channel).bind('pusher:subscription_succeeded', done));
beforeAll(async () => {
  [server, database] = await Promise.all([startServer(), openDatabase({ inMemory: true, dataDir: '' })]);
  host = { db: database.db, broadcaster: server.app.broadcaster };
});
afterEach(() => {
  for (const echo of echoes.splice(0)) echo.disconnect();
});
afterAll(async () => {
  await server.close();
  await database.close();
});

// The named events' notifications are stored by notify.ts in the event's transaction (tests/api/named-event-notifications.test.ts);
// here, what each broadcasts to whom over the real websocket once they are.
const account = (id: number, name: string, parent_id: number | null) => ({ type: 'app', id, user: { id, name, parent_id }, tokenId: 1, permissions: [] }) as unknown as Account;

describe('TimeSheetUploadEvent', () => {
  it("tells the uploader's manager on their private channel, with the stored notification's words and id", async () => {
    const manager = echoFor('app:7');
    const received = once((done) => manager.private('time-sheet-upload-event.7').listen('TimeSheetUploadEvent', done));
    await subscribedTo(manager, 'private-time-sheet-upload-event.7');
    const event = namedEventOf('time-sheet', 'created')!;
    expect(event.type).toBe('App\\Notifications\\TimeSheetUploadNotification');

    const data = { title: 'A time sheet waits for your review', message: 'Nine uploaded their time sheet.', url: '/time-sheet?highlight=1' };
    await event.broadcast({ actor: account(9, 'Nine', 7) })(host, [{ id: 'n-1', recipient: { type: 'app', id: 7 }, data }]);

    expect(await received).toEqual({ message: { ...data, id: 'n-1' }, user: { id: 9, name: 'Nine', parent_id: 7 } });
  });

  it('tells nobody else: only the manager reads it on their channel', async () => {
    const other = echoFor('app:8');
    let heard = false;
    other.private('time-sheet-upload-event.8').listen('TimeSheetUploadEvent', () => { heard = true; });
    await subscribedTo(other, 'private-time-sheet-upload-event.8');
    await namedEventOf('time-sheet', 'created')!.broadcast({ actor: account(9, 'Nine', 7) })(host, [
      { id: 'n-2', recipient: { type: 'app', id: 8 }, data: { title: 't', message: 'm', url: null } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toBe(false);
  });
});

describe('PartnerPreBillingUploadEvent', () => {
  it('tells each recipient on their own channel, naming them all', async () => {
    const [three, four] = [echoFor('app:3'), echoFor('app:4')];
    const heard = [3, 4].map((id, index) => once((done) =>
      [three, four][index].private(`partner-pre-billing-upload-event.${id}`).listen('PartnerPreBillingUploadEvent', done)));
    await Promise.all([subscribedTo(three, 'private-partner-pre-billing-upload-event.3'), subscribedTo(four, 'private-partner-pre-billing-upload-event.4')]);

    const data = { title: 'A statement waits for your check', message: 'Pat Partner of Acme submitted their statement.', url: '/ikk-partner/pre-billing/2' };
    const event = namedEventOf('pre-billing', 'created')!;
    expect(event.type).toBe('App\\Notifications\\PartnerPreBillingUploadNotification');
    expect(namedEventOf('pre-billing', 'resubmitted')).toBe(event);
    await event.broadcast({ actor: account(1, 'Pat Partner', null) })(host, [
      { id: 'a', recipient: { type: 'app', id: 3 }, data }, { id: 'b', recipient: { type: 'app', id: 4 }, data },
    ]);

    const expected = { message: data, recipients: [{ id: 3 }, { id: 4 }] };
    expect(await Promise.all(heard)).toEqual([expected, expected]);
  });
});

describe('AnnouncementMessageEvent', () => {
  it('reaches every signed-in subscriber of the channel of each audience it is for', async () => {
    const staff = echoFor('app:1');
    const partner = echoFor('partner:1');
    const staffReceived = once((done) => staff.private('announcement-alert').listen('AnnouncementMessageEvent', done));
    const partnerReceived = once((done) => partner.private('partner-announcement-alert').listen('AnnouncementMessageEvent', done));
    await subscribedTo(staff, 'private-announcement-alert');
    await subscribedTo(partner, 'private-partner-announcement-alert');
    await raiseAnnouncementMessageEvent(host, { status: 'on', message: 'Office closed Friday', audience: 'both' });
    expect(await staffReceived).toEqual({ message: { status: 'on', message: 'Office closed Friday' } });
    expect(await partnerReceived).toEqual({ message: { status: 'on', message: 'Office closed Friday' } });
  });
});
