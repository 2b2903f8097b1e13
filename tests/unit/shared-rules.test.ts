import { describe, expect, it } from 'vitest';
import { decideRoute, type GuardInput } from '../../src/shared/guards';
import { buildPageMeta, pageFromLink, pageSummary, pageWindow, paginationView } from '../../src/shared/pagination';
import { allPermissions, hasPermission } from '../../src/shared/permissions';
import { appMenu, filterMenu } from '../../src/shared/menu';
import { matchRoute, routePath, routesByName } from '../../src/shared/routes';
import { daysLateText, daysOverdue, dueSoonLabel, isExpired } from '../../src/shared/rules';
import { initialTheme } from '../../src/shared/theme';

describe('permission expressions (spec §6)', () => {
  const held = ['can-view-city', 'can-add-city'];
  it('accepts a single name', () => {
    expect(hasPermission(held, 'can-view-city')).toBe(true);
    expect(hasPermission(held, 'can-edit-city')).toBe(false);
  });
  it('treats a|b as any', () => {
    expect(hasPermission(held, 'can-edit-city|can-add-city')).toBe(true);
    expect(hasPermission(held, 'can-edit-city|can-delete-city')).toBe(false);
  });
  it('treats a&b as all', () => {
    expect(hasPermission(held, 'can-view-city&can-add-city')).toBe(true);
    expect(hasPermission(held, 'can-view-city&can-edit-city')).toBe(false);
  });
  it('allows an empty expression', () => expect(hasPermission([], undefined)).toBe(true));
  it('names every menu permission of spec §6', () => {
    for (const p of ['can-view-dashboard', 'can-assign-document', 'can-view-own-document', 'can-create-leave-application', 'can-create-bgv-check', 'can-view-invoice', 'can-edit-profile', 'can-view-partner-invoice']) {
      expect(allPermissions).toContain(p);
    }
  });
});

describe('expiry, due-soon and overdue (spec §5)', () => {
  const today = '2026-03-10';
  it('counts an empty list as expired', () => expect(isExpired([], today)).toBe(true));
  it('counts an item expiring today or earlier as expired', () => {
    expect(isExpired([{ expiry_date: '2026-03-10' }], today)).toBe(true);
    expect(isExpired([{ expiry_date: '2026-04-01' }, { expiry_date: '2026-03-01' }], today)).toBe(true);
    expect(isExpired([{ expiry_date: '2026-03-11' }], today)).toBe(false);
  });
  it('shows 5 minus the days of the window before the due date elapsed, saying what it counts (decision 021)', () => {
    expect(dueSoonLabel('2026-03-15', today)).toBe('5 days left');
    expect(dueSoonLabel('2026-03-12', today, 'to read it')).toBe('2 days left to read it');
    expect(dueSoonLabel('2026-03-11', today, 'to return it')).toBe('1 day left to return it');
    expect(dueSoonLabel('2026-03-10', today)).toBe('Due today');
    // Nine days left: outside the window, so no countdown beside the due date.
    expect(dueSoonLabel('2026-03-19', today)).toBeNull();
    // Overdue: no countdown; the lateness is said instead.
    expect(dueSoonLabel('2026-03-09', today)).toBeNull();
    expect(daysLateText(daysOverdue({ due_date: '2026-03-05', status: 'pending' }, today))).toBe('5 days late');
    expect(daysLateText(1)).toBe('1 day late');
  });
  it('measures a done task from its completion date, floored at 0', () => {
    expect(daysOverdue({ due_date: '2026-03-01', status: 'Done', completion_date: '2026-03-04' }, today)).toBe(3);
    expect(daysOverdue({ due_date: '2026-03-05', status: 'done', completion_date: '2026-03-01' }, today)).toBe(0);
  });
  it('measures other tasks to today', () => {
    expect(daysOverdue({ due_date: '2026-03-01', status: 'pending' }, today)).toBe(9);
    expect(daysOverdue({ due_date: '2026-03-20', status: 'pending' }, today)).toBe(0);
  });
});

describe('pagination (spec §9)', () => {
  const meta = (pages: number) => buildPageMeta(1, 10, pages * 10, (p) => `http://x/api/user?search=a&page=${p}`);
  it('hides at 3 links or fewer and shows only previous/next at 4', () => {
    expect(paginationView(meta(1).links)).toBe('hidden'); // prev, 1, next
    expect(paginationView([...meta(1).links, meta(1).links[0]])).toBe('previous-next');
    expect(paginationView(meta(3).links)).toBe('full');
  });
  it('emits the page from the link url', () => {
    const links = buildPageMeta(2, 10, 30, (p) => `http://x/api/user?search=a&page=${p}`).links;
    expect(pageFromLink(links[0])).toBe(1);
    expect(pageFromLink(links[links.length - 1])).toBe(3);
    expect(pageFromLink({ url: null, label: 'x', active: false })).toBeNull();
  });
  it('reads Page X of Y (total)', () => expect(pageSummary({ current_page: 2, last_page: 5, total: 48 })).toBe('Page 2 of 5 (48)'));
  it("windows the pages as Laravel's UrlWindow does (3 on each side, first and last two)", () => {
    expect(pageWindow(1, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(pageWindow(1, 14)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 13, 14]);
    expect(pageWindow(7, 100)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 99, 100]);
    expect(pageWindow(8, 100)).toEqual([1, 2, null, 5, 6, 7, 8, 9, 10, 11, null, 99, 100]);
    expect(pageWindow(94, 100)).toEqual([1, 2, null, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
    expect(pageWindow(93, 100)).toEqual([1, 2, null, 90, 91, 92, 93, 94, 95, 96, null, 99, 100]);
    const links = buildPageMeta(2000, 25, 100_000, (p) => `http://x/?page=${p}`).links;
    expect(links.map((link) => link.label).slice(1, -1)).toEqual(['1', '2', '...', '1997', '1998', '1999', '2000', '2001', '2002', '2003', '...', '3999', '4000']);
    expect(links.filter((link) => link.label === '...')).toEqual([{ url: null, label: '...', active: false }, { url: null, label: '...', active: false }]);
    expect(links.find((link) => link.active)?.label).toBe('2000');
  });
  it('builds Laravel link labels', () => {
    const m = buildPageMeta(1, 25, 0, () => '');
    expect(m.last_page).toBe(1);
    expect(m.links.map((l) => l.label)).toEqual(['&laquo; Previous', '1', 'Next &raquo;']);
  });
});

describe('theme start-up rule (spec §1)', () => {
  it.each([
    ['dark', false, 'dark'], ['light', true, 'light'], [null, true, 'dark'], [null, false, 'light'], ['junk', true, 'dark'],
  ] as const)('stored %s, system dark %s -> %s', (stored, systemDark, expected) => {
    expect(initialTheme(stored, systemDark)).toBe(expected);
  });
});

describe('route guards (spec §4)', () => {
  const decide = (pathname: string, authenticated: { app?: boolean; partner?: boolean }, appPermissions: string[] = ['can-view-dashboard']) => {
    const match = matchRoute(pathname);
    const input: GuardInput = {
      route: match?.route ?? null, pathname,
      authenticated: { app: !!authenticated.app, partner: !!authenticated.partner },
      permissions: { app: appPermissions, partner: ['can-view-invoice'] },
    };
    return decideRoute(input);
  };
  it.each([
    ['/', {}, { action: 'render', account: 'app' }],
    ['/', { app: true }, { action: 'redirect', to: 'dashboard' }],
    ['/', { partner: true }, { action: 'redirect', to: 'partner.dashboard' }],
    ['/partner/login', { app: true }, { action: 'redirect', to: 'dashboard' }],
    ['/partner/login', { partner: true }, { action: 'redirect', to: 'partner.dashboard' }],
    ['/dashboard', {}, { action: 'redirect', to: 'login' }],
    ['/partner/dashboard', {}, { action: 'redirect', to: 'partner.login' }],
    ['/partner/dashboard', { app: true }, { action: 'redirect', to: 'dashboard' }],
    ['/dashboard', { partner: true }, { action: 'redirect', to: 'partner.dashboard' }],
    ['/setting', { app: true }, { action: 'redirect', to: 'access-denied' }],
    ['/dashboard', { app: true }, { action: 'render', account: 'app' }],
    ['/notification', { app: true }, { action: 'render', account: 'app' }],
    ['/verify-email', { app: true }, { action: 'render', account: 'app' }],
    ['/verify-email', {}, { action: 'redirect', to: 'login' }],
    ['/user-manual', { app: true }, { action: 'render', account: 'app' }],
    ['/user-manual', {}, { action: 'render', account: 'app' }],
    ['/partner', {}, { action: 'redirect', to: 'partner.login' }],
    ['/partner/', { partner: true }, { action: 'redirect', to: 'partner.dashboard' }],
    ['/no/such/page', { app: true }, { action: 'not-found', account: 'app' }],
    ['/partner/no-such-page', {}, { action: 'not-found', account: 'partner' }],
    ['/partner/invoice', { partner: true }, { action: 'render', account: 'partner' }],
  ] as const)('%s with %o -> %o', (path, auth, expected) => {
    expect(decide(path, auth)).toEqual(expected);
  });
  it('prefers static segments over parameters', () => {
    expect(matchRoute('/city/create')?.route.name).toBe('city.create');
    expect(matchRoute('/city/12')?.route.name).toBe('city.show');
    expect(matchRoute('/question/3/create')?.route.name).toBe('question.create');
    expect(matchRoute('/ikk-partner/pre-billing')?.route.name).toBe('pre-billing.index');
    expect(routePath('city.edit', { id: 3 })).toBe('/city/3/edit');
  });
});

describe('menu filtering (spec §2)', () => {
  const built = () => true;
  it('keeps a group when one child is permitted and drops the others', () => {
    const menu = filterMenu(appMenu, ['can-view-dashboard', 'can-view-role'], built, hasPermission);
    expect(menu.map((e) => e.label)).toEqual(['Dashboard', 'Role & Permission']);
    expect(menu[1].children!.map((c) => c.label)).toEqual(['Role']);
  });
  it('shows the audit log to admin accounts only, whatever permissions another account holds', () => {
    expect(filterMenu(appMenu, allPermissions, built, hasPermission).map((e) => e.label)).not.toContain('Audit Log');
    expect(filterMenu(appMenu, ['can-view-dashboard'], built, hasPermission, true).map((e) => e.label)).toEqual(['Dashboard', 'Audit Log']);
  });
  it('offers someone who may only file expenses the new-claim form, not a list that denies them (spec §6)', () => {
    const held = ['can-view-dashboard', 'can-add-expense'];
    const expense = filterMenu(appMenu, held, built, hasPermission).find((e) => e.label === 'Expense')!;
    expect(expense.children!.map((c) => [c.label, c.route])).toEqual([['File an Expense', 'expense.create']]);
    const both = filterMenu(appMenu, [...held, 'can-view-expense'], built, hasPermission).find((e) => e.label === 'Expense')!;
    expect(both.children!.map((c) => c.route)).toEqual(['expense.index', 'expense.create']);
  });
  it('never offers an entry whose route the guard would deny, whatever single permission is held', () => {
    const entries = (menu: typeof appMenu): typeof appMenu => menu.flatMap((e) => (e.children ? entries(e.children) : [e]));
    for (const permission of allPermissions) {
      for (const entry of entries(filterMenu(appMenu, [permission], built, hasPermission))) {
        const route = routesByName[entry.route!];
        const decision = decideRoute({ route, pathname: routePath(route.name), authenticated: { app: true, partner: false }, permissions: { app: [permission], partner: [] } });
        expect(decision.action, `${permission}: ${entry.label}`).toBe('render');
      }
    }
  });
  it('drops entries whose screen is not built yet', () => {
    const menu = filterMenu(appMenu, allPermissions, (name) => name === 'dashboard', hasPermission);
    expect(menu.map((e) => e.label)).toEqual(['Dashboard']);
  });
});
