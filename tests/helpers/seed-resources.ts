// Known datasets for the resource tests and the list benchmark (never run on start).
import type { Db } from '../../src/server/db/client';
import { users } from '../../src/server/db/schema/accounts';

// Names with a realistic spread (docs/benchmarks.md "API list"): 200 first names and 40 common last
// names drawn with Zipf-like weights (a few are frequent, most are rare), and 60% of people carry one
// of 4,000 generated last names (each on about 15 people in 100,000). "Priya Patel" is then a few
// dozen people in 100,000, as a common name is in a real company, not 1 in 400.
const firstNames = [
  'James', 'Maria', 'Mohammed', 'Anna', 'Wei', 'Aarav', 'Sofia', 'Priya', 'David', 'Fatima', 'Rahul', 'Elena', 'John', 'Aisha', 'Chen', 'Laura',
  'Michael', 'Divya', 'Carlos', 'Sarah', 'Ahmed', 'Olga', 'Daniel', 'Kavya', 'Luis', 'Emma', 'Ali', 'Yuki', 'Robert', 'Ananya', 'Jose', 'Grace',
  'Thomas', 'Mei', 'Omar', 'Julia', 'Hiro', 'Isla', 'Jonas', 'Liam', 'Maya', 'Nikhil', 'Quinn', 'Tomas', 'Bianca', 'Farid', 'Olivia', 'Noah',
  'Amelia', 'Lucas', 'Mia', 'Ethan', 'Chloe', 'Mateo', 'Zara', 'Arjun', 'Leila', 'Ivan', 'Nadia', 'Kofi', 'Amara', 'Sven', 'Ingrid', 'Pablo',
  'Lucia', 'Rohan', 'Sneha', 'Vikram', 'Pooja', 'Karan', 'Neha', 'Sanjay', 'Deepa', 'Arun', 'Lakshmi', 'Ravi', 'Meera', 'Suresh', 'Anjali', 'Manoj',
  'Kiran', 'Vijay', 'Rekha', 'Ajay', 'Sunita', 'Amit', 'Swati', 'Rajesh', 'Nisha', 'Harish', 'Gita', 'Ashok', 'Tara', 'Dev', 'Ishaan', 'Riya',
  'William', 'Charlotte', 'Henry', 'Sophie', 'George', 'Alice', 'Oscar', 'Ruby', 'Jack', 'Lily', 'Harry', 'Ella', 'Leo', 'Freya', 'Finn', 'Evie',
  'Mateus', 'Beatriz', 'Rafael', 'Camila', 'Diego', 'Valentina', 'Andres', 'Gabriela', 'Javier', 'Paula', 'Miguel', 'Carmen', 'Sergio', 'Rosa', 'Hugo', 'Ines',
  'Hans', 'Greta', 'Klaus', 'Heidi', 'Lars', 'Astrid', 'Nils', 'Sigrid', 'Erik', 'Helga', 'Piotr', 'Agnieszka', 'Tomasz', 'Katarzyna', 'Marek', 'Zofia',
  'Kenji', 'Sakura', 'Takashi', 'Aiko', 'Haruto', 'Yui', 'Jin', 'Min', 'Hyun', 'Seo', 'Li', 'Xiu', 'Jun', 'Lan', 'Bao', 'Linh',
  'Tunde', 'Ngozi', 'Chidi', 'Adaeze', 'Kwame', 'Abena', 'Jabari', 'Zuri', 'Youssef', 'Layla', 'Hassan', 'Mariam', 'Karim', 'Yasmin', 'Tariq', 'Samira',
  'Alexei', 'Natasha', 'Dmitri', 'Irina', 'Boris', 'Tatiana', 'Pavel', 'Vera', 'Nikos', 'Eleni', 'Giorgos', 'Katerina', 'Marco', 'Giulia', 'Luca', 'Chiara',
  'Matteo', 'Francesca', 'Alessandro', 'Elisa', 'Pierre', 'Camille', 'Louis', 'Manon',
];
const commonLastNames = [
  'Smith', 'Khan', 'Patel', 'Wang', 'Garcia', 'Kumar', 'Singh', 'Nguyen', 'Mueller', 'Rossi', 'Silva', 'Kim', 'Sharma', 'Brown', 'Lopez', 'Tanaka',
  'Ivanov', 'Johnson', 'Martin', 'Ali', 'Li', 'Zhang', 'Gupta', 'Fischer', 'Costa', 'Novak', 'Okafor', 'Hansen', 'Jensen', 'Schmidt', 'Weber', 'Iyer',
  'Desai', 'Mehta', 'Anand', 'Evans', 'Reddy', 'Nair', 'Chen', 'Ahmed',
];
// Last names generated from syllables: 80 x 50 = 4,000.
const lastStarts = ['Ab', 'Bal', 'Cor', 'Dun', 'Eck', 'Fal', 'Gor', 'Hal', 'Ith', 'Jor', 'Kel', 'Lom', 'Mor', 'Nor', 'Orv', 'Pry', 'Quin', 'Rav', 'Sor', 'Tul',
  'Ulb', 'Vor', 'Wex', 'Yar', 'Zel', 'Bran', 'Crow', 'Dra', 'Fen', 'Gla', 'Hux', 'Kro', 'Lind', 'Mar', 'Ny', 'Ost', 'Pell', 'Ros', 'Stra', 'Thor',
  'Var', 'Wil', 'Bex', 'Cal', 'Dor', 'Ems', 'Fro', 'Grim', 'Hav', 'Ing', 'Jas', 'Kas', 'Lev', 'Mun', 'Nes', 'Orm', 'Pax', 'Rud', 'Sel', 'Tam',
  'Ush', 'Vel', 'Wyn', 'Yel', 'Zan', 'Bry', 'Cas', 'Del', 'Ell', 'Fy', 'Gan', 'Hol', 'Ird', 'Jun', 'Kyr', 'Lut', 'Mel', 'Nim', 'Oak', 'Pim'];
const lastEnds = ['ford', 'wick', 'stone', 'berg', 'mann', 'son', 'ley', 'ton', 'field', 'holm', 'dal', 'quist', 'vik', 'nes', 'ski', 'escu', 'ovic', 'enko', 'ides', 'akis',
  'ini', 'etti', 'ardo', 'ez', 'ena', 'ara', 'oya', 'uchi', 'moto', 'awa', 'dottir', 'ssen', 'rup', 'gaard', 'orth', 'ridge', 'mere', 'combe', 'hurst', 'worth',
  'bury', 'cott', 'dene', 'fell', 'gate', 'hope', 'ingham', 'lake', 'more', 'wood'];

/** Deterministic pseudo-random numbers in [0, 1) from an integer (splitmix32), so person n is always the same. */
function random(n: number, stream: number): number {
  let z = (Math.imul(n, 0x9e3779b9) + Math.imul(stream, 0x85ebca6b) + 0x6d2b79f5) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return ((z ^ (z >>> 15)) >>> 0) / 4294967296;
}

/** Cumulative Zipf weights (1/rank^s) over a list, for picking by inverse CDF. */
function zipf(length: number, exponent: number): number[] {
  const weights = Array.from({ length }, (_, i) => 1 / (i + 1) ** exponent);
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((w) => (running += w / sum));
}
const firstCdf = zipf(firstNames.length, 0.7);
const commonCdf = zipf(commonLastNames.length, 0.6);
const pick = (cdf: number[], u: number) => { let i = 0; while (i < cdf.length - 1 && cdf[i] <= u) i++; return i; };
const COMMON_LAST_NAME_SHARE = 0.4;

/** The n-th generated person (deterministic); emails and phones are unique per n. */
export function samplePerson(n: number) {
  const first = firstNames[pick(firstCdf, random(n, 1))];
  const u = random(n, 2);
  const last = u < COMMON_LAST_NAME_SHARE
    ? commonLastNames[pick(commonCdf, u / COMMON_LAST_NAME_SHARE)]
    : (() => { const g = Math.floor(random(n, 3) * lastStarts.length * lastEnds.length); return lastStarts[g % lastStarts.length] + lastEnds[Math.floor(g / lastStarts.length)]; })();
  return { name: `${first} ${last}`, email: `${first}.${last}.${n}@example.com`.toLowerCase(), phone: `+91 90000 ${String(n).padStart(5, '0')}` };
}

/**
 * Bulk-inserts `total` users of a type in batches (multi-row INSERTs), with one shared password
 * hash: fast enough for 100,000 rows on either database.
 */
/** Ids a seeded user may refer to; each user takes one of each, round robin (places keep a city in its country). */
export interface SeedReferences { employeeTypeIds: number[]; managerIds: number[]; places: { country_id: number; city_id: number }[] }

export async function seedUsers(db: Db, total: number, options: { userType?: 'admin' | 'manager' | 'user'; passwordHash: string; batch?: number; offset?: number; references?: SeedReferences }) {
  const batch = options.batch ?? 2000;
  const offset = options.offset ?? 0;
  const refs = options.references;
  const pick = <T>(list: T[], n: number) => list[n % list.length];
  for (let start = 0; start < total; start += batch) {
    const rows = Array.from({ length: Math.min(batch, total - start) }, (_, i) => ({
      ...samplePerson(offset + start + i),
      ...(refs ? {
        employee_type_id: pick(refs.employeeTypeIds, start + i),
        parent_id: pick(refs.managerIds, start + i),
        ...pick(refs.places, start + i),
      } : {}),
      password: options.passwordHash,
      user_type: options.userType ?? 'user',
      email_verified_at: new Date(),
    }));
    await db.insert(users).values(rows);
  }
}
