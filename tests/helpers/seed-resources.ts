// Known datasets for the resource tests and the list benchmark (never run on start).
import type { Db } from '../../src/server/db/client';
import { users } from '../../src/server/db/schema/accounts';

const firstNames = ['Aarav', 'Bianca', 'Chen', 'Divya', 'Elena', 'Farid', 'Grace', 'Hiro', 'Isla', 'Jonas', 'Kavya', 'Liam', 'Maya', 'Nikhil', 'Olga', 'Priya', 'Quinn', 'Rahul', 'Sofia', 'Tomas'];
const lastNames = ['Anand', 'Brown', 'Costa', 'Desai', 'Evans', 'Fischer', 'Gupta', 'Hansen', 'Iyer', 'Jensen', 'Khan', 'Lopez', 'Mehta', 'Novak', 'Okafor', 'Patel', 'Rossi', 'Schmidt', 'Tanaka', 'Weber'];

/** The n-th generated person: 400 distinct names, each last name on 1 in 20 people. */
export function samplePerson(n: number) {
  const first = firstNames[n % firstNames.length];
  const last = lastNames[Math.floor(n / firstNames.length) % lastNames.length];
  return { name: `${first} ${last}`, email: `${first}.${last}.${n}@example.com`.toLowerCase(), phone: `+91 90000 ${String(n).padStart(5, '0')}` };
}

/**
 * Bulk-inserts `total` users of a type in batches (multi-row INSERTs), with one shared password
 * hash: fast enough for 100,000 rows on either database.
 */
export async function seedUsers(db: Db, total: number, options: { userType?: 'admin' | 'manager' | 'user'; passwordHash: string; batch?: number; offset?: number }) {
  const batch = options.batch ?? 2000;
  const offset = options.offset ?? 0;
  for (let start = 0; start < total; start += batch) {
    const rows = Array.from({ length: Math.min(batch, total - start) }, (_, i) => ({
      ...samplePerson(offset + start + i),
      password: options.passwordHash,
      user_type: options.userType ?? 'user',
      email_verified_at: new Date(),
    }));
    await db.insert(users).values(rows);
  }
}
