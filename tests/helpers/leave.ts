// The set-up the leave suites share (leave applications, the ledger): a test app with India as a
// country, the people each suite names (made through `make`, each with a token), the admin and the
// seeded leave types by lower-case name; and the calls both suites make.
import { eq } from 'drizzle-orm';
import type { users } from '../../src/server/db/schema/accounts';
import { leaveTypes } from '../../src/server/db/schema/hr';
import { countries } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { ADMIN, createTestApp, type TestApp } from './app';

export type MakePerson = (key: string, values: Partial<typeof users.$inferInsert>) => Promise<void>;

export function leaveWorld() {
  const type: Record<string, number> = {};
  const people: Record<string, { id: number; token: string }> = {};
  let app: TestApp | undefined;
  const t = () => {
    if (!app) throw new Error('leaveWorld: setUp has not run');
    return app;
  };

  /** Builds the app, India, the suite's people (in order: a manager before those who report to them), the admin and the types. */
  async function setUp(makePeople: (make: MakePerson, india: number) => Promise<void>) {
    app = await createTestApp();
    const [{ id: india }] = await app.app.db.insert(countries).values({ name: 'India', code: 'IN' }).returning();
    await makePeople(async (key, values) => { people[key] = await t().signedIn(key, key, values); }, india);
    people.admin = { id: 1, token: await app.login(ADMIN.email, ADMIN.password) };
    for (const row of await app.app.db.select().from(leaveTypes)) type[row.name.toLowerCase()] = row.id;
    return { t: app, india };
  }

  /** Applies for annual leave (unless the body names another type) as `who`: the raw answer. */
  const apply = (who: string, body: Record<string, unknown>) =>
    t().call('POST', '/api/leave-application', { token: people[who].token, body: { leave_type_id: type.annual, ...body } });
  /** Runs a transition of a leave application as `who`, with its comment and values when given. */
  const move = (who: string, id: number, transition: string, comment?: string, values?: Record<string, unknown>) =>
    t().call('POST', `/api/leave-application/${id}/transitions/${transition}`, {
      token: people[who].token, body: { ...(comment === undefined ? {} : { comment }), ...(values ? { values } : {}) },
    });
  /** The notifications stored for `who`. */
  const notesFor = async (who: string) =>
    (await t().app.db.select().from(notifications).where(eq(notifications.notifiable_id, people[who].id))).map((n) => n.data);

  return { type, people, setUp, apply, move, notesFor, close: () => app?.close() };
}
