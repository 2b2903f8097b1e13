// Master data through its generated routes: CRUD, 422 field errors, unknown foreign keys, refused
// deletes, search, sort, filters, pagination meta, CSV export and options.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeeTypes } from '../../src/server/db/schema/master-data';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { statementsOf } from '../helpers/statements';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => { await t?.close(); });

const post = (url: string, body: unknown, token = admin) => t.call('POST', url, { token, body });

describe('country', () => {
  it('creates, shows, updates and deletes a country', async () => {
    const created = await post('/api/country', { name: 'India', code: 'in', status: 'active' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Country created successfully.');
    expect(created.body.data).toMatchObject({ name: 'India', code: 'IN', status: 'active' });
    const id = created.body.data.id;

    expect((await t.call('GET', `/api/country/${id}`, { token: admin })).body.data.name).toBe('India');
    const put = await t.call('PUT', `/api/country/${id}`, { token: admin, body: { name: 'Bharat', code: 'IN', status: 'inactive' } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Bharat', status: 'inactive' });
    const patch = await t.call('PATCH', `/api/country/${id}`, { token: admin, body: { status: 'active' } });
    expect(patch.body.data).toMatchObject({ name: 'Bharat', status: 'active' });

    expect((await t.call('DELETE', `/api/country/${id}`, { token: admin })).body.message).toBe('Country deleted successfully.');
    const gone = await t.call('GET', `/api/country/${id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Country not found.');
  });

  it('answers invalid fields with 422 errors under each field', async () => {
    const res = await post('/api/country', { name: '', code: 'IND' });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(['The name field is required.']);
    expect(res.body.errors.code).toEqual(['The code field must be 2 letters.']);
    expect(res.body.errors.status).toBeDefined();
  });

  it('refuses a name or code already taken, whatever the case', async () => {
    await post('/api/country', { name: 'Germany', code: 'DE', status: 'active' });
    const res = await post('/api/country', { name: 'GERMANY', code: 'de', status: 'active' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: ['The name has already been taken.'], code: ['The code has already been taken.'] });
  });

  it('answers an unknown id with 404 and a malformed one with 422', async () => {
    expect((await t.call('PUT', '/api/country/999999', { token: admin, body: { name: 'X', code: 'XX', status: 'active' } })).status).toBe(404);
    expect((await t.call('GET', '/api/country/abc', { token: admin })).status).toBe(422);
  });
});

describe('city', () => {
  let countryId: number;
  let otherCountryId: number;
  beforeAll(async () => {
    countryId = (await post('/api/country', { name: 'Netherlands', code: 'NL', status: 'active' })).body.data.id;
    otherCountryId = (await post('/api/country', { name: 'Austria', code: 'AT', status: 'active' })).body.data.id;
    for (const name of ['Amsterdam', 'Rotterdam', 'Utrecht']) await post('/api/city', { name, country_id: countryId, status: 'active' });
    await post('/api/city', { name: 'Vienna', country_id: otherCountryId, status: 'active' });
  });

  it('returns the country with each city', async () => {
    const res = await t.call('GET', '/api/city?search=vien', { token: admin });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ name: 'Vienna', country_id: otherCountryId, country: { id: otherCountryId, name: 'Austria' } });
  });

  it('refuses an unknown country with 422 on the field', async () => {
    const res = await post('/api/city', { name: 'Atlantis', country_id: 987654, status: 'active' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ country_id: ['The country you chose has been removed or cannot be chosen here. Choose another.'] });
  });

  it('refuses to delete a country with cities, with a clear message', async () => {
    const res = await t.call('DELETE', `/api/country/${countryId}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This country cannot be deleted because 3 cities use it.');
    expect((await t.call('GET', `/api/country/${countryId}`, { token: admin })).status).toBe(200);
  });

  it('searches case-insensitively, treats wildcards literally, sorts and filters', async () => {
    const search = await t.call('GET', '/api/city?search=TERDAM&sort=name&direction=desc', { token: admin });
    expect(search.body.data.map((c: { name: string }) => c.name)).toEqual(['Rotterdam', 'Amsterdam']);
    expect((await t.call('GET', '/api/city?search=%25', { token: admin })).body.data).toEqual([]);
    const byCountry = await t.call('GET', `/api/city?sort=country_id&direction=asc&per_page=100`, { token: admin });
    expect(byCountry.body.data[0].country.name).toBe('Austria');
    const filtered = await t.call('GET', `/api/city?country_id=${countryId}`, { token: admin });
    expect(filtered.body.data.map((c: { name: string }) => c.name)).toEqual(['Amsterdam', 'Rotterdam', 'Utrecht']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await t.call('GET', `/api/city?created_at_from=${today}&created_at_to=${today}`, { token: admin })).body.meta.total).toBe(4);
    expect((await t.call('GET', '/api/city?created_at_to=2000-01-01', { token: admin })).body.meta.total).toBe(0);
  });

  it('refuses a sort key that is not whitelisted, and a malformed filter', async () => {
    const res = await t.call('GET', '/api/city?sort=updated_at', { token: admin });
    expect(res.status).toBe(422);
    expect(res.body.errors.sort).toBeDefined();
    expect((await t.call('GET', '/api/city?created_at_from=yesterday', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/city?status=maybe', { token: admin })).status).toBe(422);
  });

  it('refuses a day that does not exist and an id past the integer range with 422, never a 500', async () => {
    for (const url of ['/api/city?created_at_to=2026-02-30', '/api/city/export?created_at_from=2026-99-99',
      '/api/city?country_id=99999999999', '/api/city/options?country_id=99999999999', '/api/city/99999999999']) {
      expect((await t.call('GET', url, { token: admin })).status, url).toBe(422);
    }
    const tooBig = await post('/api/city', { name: 'Overflow', country_id: 99_999_999_999, status: 'active' });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors).toEqual({ country_id: ['The country you chose has been removed or cannot be chosen here. Choose another.'] });
  });

  it('exports the filtered list as CSV with labels', async () => {
    const res = await t.call('GET', `/api/city/export?country_id=${countryId}&sort=name&direction=desc`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="city-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = String(res.body).trim().split('\r\n');
    expect(lines[0]).toBe('Name,Country,Status,Created At');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'Utrecht,Netherlands,Active', 'Rotterdam,Netherlands,Active', 'Amsterdam,Netherlands,Active',
    ]);
    // spec §9: dates as YYYY-MM-DD, as the list shows them.
    expect(lines[1].split(',')[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('neutralises spreadsheet formulas and quotes commas in the export', async () => {
    await post('/api/client', { name: '=HYPERLINK("x")', status: 'active' });
    await post('/api/client', { name: 'Acme, Inc.', status: 'active' });
    const lines = String((await t.call('GET', '/api/client/export?sort=name', { token: admin })).body).trim().split('\r\n');
    expect(lines).toContainEqual(expect.stringMatching(/^"'=HYPERLINK\(""x""\)",/));
    expect(lines).toContainEqual(expect.stringMatching(/^"Acme, Inc\.",/));
  });

  it('streams an export larger than one batch in full', async () => {
    await t.app.db.insert(employeeTypes).values(Array.from({ length: 1203 }, (_, i) => ({ name: `Export Type ${String(i).padStart(4, '0')}` })));
    const lines = String((await t.call('GET', '/api/employee-type/export?search=Export%20Type', { token: admin })).body).trim().split('\r\n');
    expect(lines).toHaveLength(1204);
    expect(lines[1]).toMatch(/^Export Type 0000,/);
    expect(lines[1203]).toMatch(/^Export Type 1202,/);
  });

  it('offers active countries as options to whoever fills a city form', async () => {
    await post('/api/country', { name: 'Narnia', code: 'NA', status: 'inactive' });
    const role = await post('/api/role', { name: 'city-clerk', permission_ids: await permissionIds(['can-add-city']) });
    const clerk = await t.createUser({ email: 'clerk@example.com' }, ['city-clerk']);
    const token = await clerk.token();
    const options = await t.call('GET', '/api/country/options?search=n', { token });
    expect(options.status).toBe(200);
    expect(options.body.data).toEqual(expect.arrayContaining([{ id: countryId, label: 'Netherlands' }]));
    expect(options.body.data.map((o: { label: string }) => o.label)).not.toContain('Narnia');
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/expense-category/options', { token })).status).toBe(403);
    expect(role.status).toBe(201);
  });
});

describe('pagination', () => {
  beforeAll(async () => {
    await t.app.db.insert(employeeTypes).values(Array.from({ length: 23 }, (_, i) => ({ name: `Paged ${String(i + 1).padStart(2, '0')}` })));
  });

  it('answers Laravel meta for a known dataset', async () => {
    const res = await t.call('GET', '/api/employee-type?search=paged&per_page=10&page=2', { token: admin });
    expect(res.body.data.map((r: { name: string }) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Paged ${String(i + 11).padStart(2, '0')}`));
    const { meta } = res.body;
    expect(meta).toMatchObject({ current_page: 2, last_page: 3, per_page: 10, total: 23 });
    expect(meta.links.map((l: { label: string }) => l.label)).toEqual(['&laquo; Previous', '1', '2', '3', 'Next &raquo;']);
    expect(meta.links.find((l: { active: boolean }) => l.active).label).toBe('2');
    expect(meta.links[0].url).toContain('page=1');
    expect(meta.links[0].url).toContain('search=paged');
    expect(meta.links[4].url).toContain('page=3');
  });

  it('pages a search sorted by a referenced label in that order, each page with the total of the whole search', async () => {
    const country = async (name: string, code: string) => (await post('/api/country', { name, code, status: 'active' })).body.data.id as number;
    const countries = { a: await country('Alphaland', 'AV'), b: await country('Bravoland', 'BV'), c: await country('Charlieland', 'CV') };
    const made: { id: number; country: string }[] = [];
    for (const [i, key] of (['c', 'a', 'b', 'a', 'c'] as const).entries()) {
      made.push({ id: (await post('/api/city', { name: `Sortville ${i}`, country_id: countries[key], status: 'active' })).body.data.id, country: key });
    }
    await post('/api/city', { name: 'Elsewhere', country_id: countries.a, status: 'active' });
    // Descending: the country's name, then the id.
    const expected = [...made].sort((x, y) => y.country.localeCompare(x.country) || y.id - x.id).map((c) => c.id);
    const page = async (n: number) => (await t.call('GET', `/api/city?search=sortville&sort=country_id&direction=desc&per_page=2&page=${n}`, { token: admin })).body;
    const pages = [await page(1), await page(2), await page(3)];
    expect(pages.flatMap((p) => p.data.map((r: { id: number }) => r.id))).toEqual(expected);
    expect(pages.map((p) => p.meta.total)).toEqual([5, 5, 5]);
    expect(pages[2].data[0].country).toEqual({ id: countries.a, name: 'Alphaland' });
    expect(await page(4)).toMatchObject({ data: [], meta: { total: 5, last_page: 3 } });
  });

  it('caps per_page at 100 and answers past the last page with no rows', async () => {
    expect((await t.call('GET', '/api/employee-type?per_page=1000', { token: admin })).body.meta.per_page).toBe(100);
    const past = await t.call('GET', '/api/employee-type?search=paged&per_page=10&page=9', { token: admin });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(23);
  });
});

describe('position', () => {
  it('creates a position for a client, refuses an unknown client and a bad count, and counts open ones', async () => {
    const client = (await post('/api/client', { name: 'Globex', email: 'hire@globex.example', status: 'active' })).body.data;
    const bad = await post('/api/position', { title: 'Engineer', client_id: 424242, location: 'Pune', count: 0, status: 'open' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.count).toEqual(['The count field must be at least 1.']);
    const unknownClient = await post('/api/position', { title: 'Engineer', client_id: 424242, location: 'Pune', count: 2, status: 'open' });
    expect(unknownClient.body.errors).toEqual({ client_id: ['The client you chose has been removed or cannot be chosen here. Choose another.'] });

    const created = await post('/api/position', { title: 'Network Engineer', client_id: client.id, location: 'Pune', count: 3, status: 'open' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Network Engineer', count: 3, client: { id: client.id, name: 'Globex' } });
    await post('/api/position', { title: 'EUC Support', client_id: client.id, location: 'Delft', count: 1, status: 'on hold' });

    const open = await t.call('GET', '/api/position?status=open', { token: admin });
    expect(open.body.data.map((p: { title: string }) => p.title)).toEqual(['Network Engineer']);
    expect((await t.call('GET', '/api/dashboard', { token: admin })).body.data.open_positions).toBe(1);
    const refused = await t.call('DELETE', `/api/client/${client.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This client cannot be deleted because 2 positions use it.');
  });
});

describe('questions', () => {
  it('keeps questions under their category, checks the correct answer and refuses deleting a used category', async () => {
    const category = (await post('/api/question-category', { name: 'Networking', status: 'active' })).body.data;
    const wrong = await post('/api/question', { question_category_id: category.id, question: 'Port of HTTPS?', options: ['80', '443'], correct_answer: '22', skill_level: 1 });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ correct_answer: ['The correct answer must be one of the options.'] });
    const level = await post('/api/question', { question_category_id: category.id, question: 'Port of HTTPS?', options: ['80'], correct_answer: '80', skill_level: 4 });
    expect(Object.keys(level.body.errors).sort()).toEqual(['options', 'skill_level']);

    const created = await post('/api/question', { question_category_id: category.id, question: 'Port of HTTPS?', options: ['80', '443', '22'], correct_answer: '443', skill_level: 2 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ options: ['80', '443', '22'], correct_answer: '443', skill_level: 2, question_category: { id: category.id, name: 'Networking' } });
    // A partial update is checked against the options already stored.
    const patch = await t.call('PATCH', `/api/question/${created.body.data.id}`, { token: admin, body: { correct_answer: '8080' } });
    expect(patch.status).toBe(422);
    expect((await t.call('PATCH', `/api/question/${created.body.data.id}`, { token: admin, body: { correct_answer: '22' } })).body.data.correct_answer).toBe('22');

    const other = (await post('/api/question-category', { name: 'Finance', status: 'active' })).body.data;
    await post('/api/question', { question_category_id: other.id, question: 'What is GST?', options: ['A tax', 'A bank'], correct_answer: 'A tax', skill_level: 1 });
    await post('/api/question', { question_category_id: category.id, question: 'Port of SSH?', options: ['22', '25'], correct_answer: '22', skill_level: 3 });
    const list = await t.call('GET', `/api/question?question_category_id=${category.id}`, { token: admin });
    expect(list.body.data.map((q: { question: string }) => q.question)).toEqual(['Port of HTTPS?', 'Port of SSH?']);
    const categories = await t.call('GET', '/api/question-category?sort=questions_count&direction=desc', { token: admin });
    expect(categories.body.data.map((c: { name: string; questions_count: number }) => [c.name, c.questions_count])).toEqual([['Networking', 2], ['Finance', 1]]);

    const refused = await t.call('DELETE', `/api/question-category/${category.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This question category cannot be deleted because 2 questions use it.');
  });
});

async function permissionIds(names: string[]): Promise<number[]> {
  const groups = (await t.call('GET', '/api/permission-groups', { token: admin })).body.data as { permissions: { id: number; name: string }[] }[];
  return groups.flatMap((g) => g.permissions).filter((p) => names.includes(p.name)).map((p) => p.id);
}

describe('a list page\'s statement (decision 055)', () => {
  it('writes a first page\'s limit and offset into its text, so its plan can be kept, and binds a deeper page\'s offset', async () => {
    const pageSql = async (page: number) => (await statementsOf(t.app.db, async () => {
      expect((await t.call('GET', `/api/country?per_page=10&page=${page}`, { token: admin })).status).toBe(200);
    })).map((statement) => statement.sql).find((text) => /from "countries"/.test(text) && / limit /.test(text))!;
    expect(await pageSql(1)).toMatch(/ limit 10 offset 0\b/);
    const deeper = await pageSql(3);
    expect(deeper).toMatch(/ limit 10 offset \$\d+/);
    expect(deeper).not.toMatch(/offset 20/);
  });
});
