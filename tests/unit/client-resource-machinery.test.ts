// The pure parts of the generic resource screens: url state, paths, form values <-> payload.
import { describe, expect, it } from 'vitest';
import { city } from '../../src/shared/resources/city';
import { question } from '../../src/shared/resources/question';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { user } from '../../src/shared/resources/user';
import { resourceRouteNames } from '../../src/client/routes';
import {
  effectiveSort, listQueryToParams, listQueryToSearch, nextSort, parseListQuery,
} from '../../src/client/ui/resources/use-resource-query';
import { parentIdFromParams, resourceForRoute, resourcePath } from '../../src/client/ui/resources/resource-values';
import { arrayBounds, buildPayload, initialFormState, isRequired } from '../../src/client/ui/resources/resource-form';
import { schemaErrors } from '../../src/client/lib/form-errors';
import { isIsoDate, normaliseDateText } from '../../src/client/ui/date-input';

describe('list state in the url', () => {
  it('reads page, search, sort and the definition\'s filters, ignoring unknown keys and sorts', () => {
    const query = parseListQuery(city, 'page=3&search=ber&sort=name&direction=desc&status=active&created_at_from=2024-01-01&bogus=1');
    expect(query).toEqual({ page: 3, search: 'ber', sort: 'name', direction: 'desc', filters: { status: 'active', created_at_from: '2024-01-01' } });
    expect(parseListQuery(city, 'sort=password&page=-2').sort).toBeUndefined();
    expect(parseListQuery(city, 'page=-2').page).toBe(1);
  });

  it('writes the url without defaults and the API query with them', () => {
    const query = { page: 1, search: ' ber ', sort: 'name', direction: 'asc' as const, filters: { country_id: '4' } };
    expect(listQueryToSearch(query)).toBe('search=ber&sort=name&direction=asc&country_id=4');
    expect(listQueryToParams({ ...query, page: 2 }, { question_category_id: 9 })).toEqual({ question_category_id: 9, page: 2, search: 'ber', sort: 'name', direction: 'asc', country_id: '4' });
  });

  it('shows the default sort until a header is clicked; the same header flips direction', () => {
    const sort = effectiveSort(city, parseListQuery(city, ''));
    expect(sort).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort(sort, 'name')).toEqual({ sort: 'name', direction: 'desc' });
    expect(nextSort(sort, 'created_at')).toEqual({ sort: 'created_at', direction: 'asc' });
  });
});

describe('screens of a definition', () => {
  it('has a registered screen for every route of the master data, people and access definitions', () => {
    const generic = ['country', 'city', 'client', 'employee-type', 'expense-category', 'position', 'question-category', 'question', 'admin', 'manager', 'user', 'active-user', 'role', 'permission'];
    const names = resourceDefinitions.filter((d) => generic.includes(d.name)).flatMap((definition) => Object.values(definition.routes));
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) expect(resourceRouteNames, name).toContain(name);
    for (const name of resourceRouteNames) expect(resourceForRoute(name), name).not.toBeNull();
  });

  it('builds nested question paths from the parent id', () => {
    expect(resourcePath(question, 'index', { parentId: 7 })).toBe('/question-category/7/question');
    expect(resourcePath(question, 'create', { parentId: 7 })).toBe('/question/7/create');
    expect(resourcePath(question, 'edit', { id: 3, parentId: 7 })).toBe('/question/7/3/edit');
    expect(resourcePath(question, 'show', { id: 3 })).toBe('/question/3');
    expect(resourcePath(question, 'create')).toBeNull();
    expect(parentIdFromParams(question, 'index', { id: '7' })).toBe('7');
    expect(parentIdFromParams(question, 'edit', { category_id: '7', id: '3' })).toBe('7');
    expect(resourcePath(city, 'edit', { id: 5 })).toBe('/city/5/edit');
  });
});

describe('generic form values', () => {
  it('starts a new record on the first status and the minimum number of list items', () => {
    expect(initialFormState(city, null).values).toEqual({ name: '', country_id: '', status: 'active' });
    const { values } = initialFormState(question, null);
    expect(values.options).toEqual(['', '']);
    expect(arrayBounds(question.schema.shape.options)).toEqual({ min: 2, max: 6 });
  });

  it('reads references and many-references from the serialised relations', () => {
    const row = { id: 1, name: 'Uma', email: 'u@x.io', country_id: 2, country: { id: 2, name: 'India' }, city_id: null, city: null, roles: [{ id: 3, name: 'user' }], status: 'active' };
    const { values, choices } = initialFormState(user, row);
    expect(values.country_id).toBe('2');
    expect(choices.country_id).toEqual({ id: 2, label: 'India' });
    expect(values.role_ids).toEqual(['3']);
    expect(choices.role_ids).toEqual([{ id: 3, label: 'user' }]);
  });

  it('builds the typed payload with the parent from the route and drops a correct answer no longer among the options', () => {
    const payload = buildPayload(question, { question: 'Q?', options: ['A', 'B', ' '], correct_answer: 'C', skill_level: '2' }, '7');
    expect(payload).toEqual({ question: 'Q?', options: ['A', 'B'], correct_answer: null, skill_level: 2, question_category_id: 7 });
    const parsed = question.schema.safeParse(payload);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(Object.keys(schemaErrors(parsed.error))).toEqual(['correct_answer']);
  });

  it('keys nested schema errors like the server (options.1)', () => {
    const parsed = question.schema.safeParse({ question_category_id: 1, question: 'Q', options: ['A', ''], correct_answer: 'A', skill_level: 1 });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(schemaErrors(parsed.error)).toHaveProperty(['options.1']);
  });

  it('marks required fields from the schema', () => {
    expect(isRequired(city, 'name')).toBe(true);
    expect(isRequired(user, 'phone')).toBe(false);
  });
});

describe('dates typed as YYYY-MM-DD', () => {
  it('accepts real calendar days only and inserts the dashes', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-1-5')).toBe(false);
    expect(normaliseDateText('20240105')).toBe('2024-01-05');
  });
});
