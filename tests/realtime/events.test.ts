// @vitest-environment node
// Domain events: stored as notifications first, then broadcast under Laravel's event names.
import { and, eq } from 'drizzle-orm';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { notifications } from '../../src/server/db/schema/notifications';
import {
  raiseAnnouncementMessageEvent, raisePartnerPreBillingUploadEvent, raiseTimeSheetUploadEvent, type EventHost,
} from '../../src/server/realtime/events';
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
const rowsFor = (userId: number) => database.db.select().from(notifications)
  .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, userId)));

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

describe('TimeSheetUploadEvent', () => {
  it("stores a notification for the uploader's manager, then tells the manager's private channel", async () => {
    const manager = echoFor('app:7');
    let rowsWhenReceived: unknown[] = [];
    const received = once((done) => manager.private('time-sheet-upload-event.7').listen('TimeSheetUploadEvent', async (event: unknown) => {
      rowsWhenReceived = await rowsFor(7);
      done(event);
    }));
    await subscribedTo(manager, 'private-time-sheet-upload-event.7');

    await raiseTimeSheetUploadEvent(host, {
      uploader: { id: 9, name: 'Nine', parent_id: 7 }, title: 'Time sheet uploaded', message: 'Nine uploaded March', url: '/time-sheet/1',
    });

    expect(await received).toEqual({
      message: { title: 'Time sheet uploaded', message: 'Nine uploaded March', url: '/time-sheet/1' },
      user: { id: 9, name: 'Nine', parent_id: 7 },
    });
    expect(rowsWhenReceived).toMatchObject([{
      type: 'App\\Notifications\\TimeSheetUploadNotification',
      data: { title: 'Time sheet uploaded', message: 'Nine uploaded March', url: '/time-sheet/1' },
      read_at: null,
    }]);
  });

  it('notifies no one for an uploader without a manager', async () => {
    await raiseTimeSheetUploadEvent(host, { uploader: { id: 10, name: 'Ten', parent_id: null }, title: 't', message: 'm', url: null });
    expect(await database.db.select().from(notifications).where(eq(notifications.type, 'App\\Notifications\\TimeSheetUploadNotification')))
      .toHaveLength(1);
  });
});

describe('PartnerPreBillingUploadEvent', () => {
  it('stores one notification per recipient and tells each on their own channel', async () => {
    const [three, four] = [echoFor('app:3'), echoFor('app:4')];
    const heard = [3, 4].map((id, index) => once((done) =>
      [three, four][index].private(`partner-pre-billing-upload-event.${id}`).listen('PartnerPreBillingUploadEvent', done)));
    await Promise.all([subscribedTo(three, 'private-partner-pre-billing-upload-event.3'), subscribedTo(four, 'private-partner-pre-billing-upload-event.4')]);

    await raisePartnerPreBillingUploadEvent(host, { recipients: [{ id: 3 }, { id: 4 }], title: 'Pre-billing', message: 'Acme uploaded', url: '/pre-billing/2' });

    const expected = { message: { title: 'Pre-billing', message: 'Acme uploaded', url: '/pre-billing/2' }, recipients: [{ id: 3 }, { id: 4 }] };
    expect(await Promise.all(heard)).toEqual([expected, expected]);
    for (const id of [3, 4]) {
      expect(await rowsFor(id)).toMatchObject([{ type: 'App\\Notifications\\PartnerPreBillingUploadNotification', data: expected.message }]);
    }
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
