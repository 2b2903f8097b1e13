// The one query cache of the signed-in app (TanStack Query v5 over lib/api.ts; docs/decisions/012-one-query-cache.md).
// Loaded with the authenticated layout's chunk only: the login route never downloads the library.
//
// - Keys: built here and nowhere else (`queryKeys`), by resource, record and list parameters.
// - Writes: `invalidateAfterWrite(resource, id)` (or `useResourceMutation`) marks stale the record, the
//   resource's lists, options and summaries, and whatever `countedBy` says counts the resource
//   (dashboard figures, a parent's summary). Declared once per resource below, not per call site.
// - Live events (lib/echo.ts) and delivered outbox items (lib/outbox.ts) announce a change through
//   lib/changes.ts; a live one refetches only the lists of the resource it names and that record.
// - The connection returning (stores/pwa.ts `online`) refetches what is on screen (active queries).
import { QueryClient, useMutation, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';
import { subscribe } from 'valtio';
import { DASHBOARD_COUNTS } from '../../shared/dashboard';
import { matchRoute } from '../../shared/routes';
import { resourceByName, resourceDefinitions } from '../../shared/resources/registry';
import { ACCOUNT_TYPES, auth } from '../stores/auth';
import { pwa } from '../stores/pwa';
import { changeFromUrl, onChange, type Change } from './changes';

type Id = string | number;

/** Query keys, one builder per kind. Prefixes nest: invalidating a record also invalidates its history. */
export const queryKeys = {
  resource: (resource: string) => ['resource', resource] as const,
  lists: (resource: string) => ['resource', resource, 'list'] as const,
  list: (resource: string, params: Record<string, unknown>) => ['resource', resource, 'list', params] as const,
  records: (resource: string) => ['resource', resource, 'record'] as const,
  record: (resource: string, id: Id) => ['resource', resource, 'record', String(id)] as const,
  /** A part of a record fetched on its own route (history, changes, compliance). */
  recordPart: (resource: string, id: Id, part: string, ...rest: unknown[]) => ['resource', resource, 'record', String(id), part, ...rest] as const,
  options: (resource: string, params: Record<string, unknown> = {}) => ['resource', resource, 'options', params] as const,
  /** A figure computed from many records of the resource (a calendar month, a board). */
  summaries: (resource: string) => ['resource', resource, 'summary'] as const,
  summary: (resource: string, ...parts: unknown[]) => ['resource', resource, 'summary', ...parts] as const,
  /** A pre-billing's lines beside the approved time sheets: a figure of both resources (LIVE_COUNTS). */
  preBillingComparison: (...parts: unknown[]) => ['resource', 'pre-billing', 'summary', 'comparison', ...parts] as const,
  dashboard: (...parts: unknown[]) => ['dashboard', ...parts] as const,
  notifications: (...parts: unknown[]) => ['notifications', ...parts] as const,
  /** The bell's unread list and count (lib/unread.ts); apart from the notification page's, which live events refetch. */
  unread: (account: string) => ['unread-notifications', account] as const,
  /** Screens that are not a resource (settings, audit log, my documents): by screen name. */
  screen: (name: string, ...parts: unknown[]) => ['screen', name, ...parts] as const,
};

/**
 * What else counts a resource's records, beyond its own lists and summaries. Declared once:
 * - the app and partner dashboards count the resources of shared/dashboard.ts (a test holds that list
 *   to the dashboards' queries);
 * - a record listed under a parent (`related` of the parent's definition) feeds the parent's own
 *   figures: an onboarding's open and overdue tasks, a background check's Result;
 * - a few hand-written screens sum a resource: leave balances count leave applications.
 */
/**
 * Figures of another resource computed from a resource's records, refetched when one of those records
 * changes here or live: a pre-billing's comparison reads the firm's approved time sheets, so a time
 * sheet approved (or sent back) refetches the comparison on screen.
 */
const LIVE_COUNTS: Record<string, QueryKey[]> = {
  'time-sheet': [queryKeys.preBillingComparison()],
};
const EXTRA_COUNTS: Record<string, QueryKey[]> = {
  ...LIVE_COUNTS,
  'leave-application': [queryKeys.screen('leave-balance')],
  'reimbursement-batch': [queryKeys.resource('expense')],
  expense: [queryKeys.summaries('reimbursement-batch')],
  // A person's compliance (their show screen) sums their own documents and assignments.
  document: [queryKeys.screen('person-compliance')],
  'document-assign-history': [queryKeys.screen('person-compliance')],
  // A candidate form link (made or revoked on the candidates' screen) and a candidate applying through
  // one (a single-use link is spent) change the position's list of links.
  'candidate-form-link': [queryKeys.screen('candidate-form-links')],
  candidate: [queryKeys.screen('candidate-form-links')],
  // The first-run checklist (dashboard, src/server/modules/setup) ticks its steps from the firm profile,
  // this year's holidays, the people invited (added or imported) and the starting lists it asks to keep.
  ...Object.fromEntries([
    'setting', 'holiday', 'admin', 'manager', 'user', 'expense-category', 'leave-type', 'onboarding-template', 'role', 'setup-checklist',
  ].map((resource) => [resource, [queryKeys.screen('setup-checklist')]])),
};

function buildCountedBy(): Record<string, QueryKey[]> {
  const map: Record<string, QueryKey[]> = {};
  const add = (resource: string, key: QueryKey) => { (map[resource] ??= []).push(key); };
  for (const resource of DASHBOARD_COUNTS) add(resource, queryKeys.dashboard());
  for (const parent of resourceDefinitions) {
    for (const related of parent.related ?? []) add(related.resource, queryKeys.resource(parent.name));
  }
  for (const definition of resourceDefinitions) {
    if (definition.parent) add(definition.name, queryKeys.resource(definition.parent.resource));
  }
  for (const [resource, keys] of Object.entries(EXTRA_COUNTS)) for (const key of keys) add(resource, key);
  return map;
}

/** resource -> the keys of what counts it (besides its own lists and summaries). */
export const countedBy: Readonly<Record<string, QueryKey[]>> = buildCountedBy();

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Offline the service worker answers from its cache ("Offline — showing data from …"): queries
      // must still run, not pause until the browser says it is online.
      networkMode: 'always',
      // The API wrapper already told the user (spec §8); a retry would toast again.
      retry: false,
      // Fresh data comes from writes, live events and reconnects; a tab switch costs no request.
      refetchOnWindowFocus: false,
      // Going back to a screen shows the cached answer at once and refreshes it.
      staleTime: 0,
    },
    mutations: { networkMode: 'always', retry: false },
  },
});

/** A resource name as the cache knows it: an outbox url's partner segment ('invoice') names 'partner-invoice'. */
export function canonicalResource(name: string): string {
  if (resourceByName[name]) return name;
  return resourceDefinitions.find((definition) => definition.owner?.segment === name)?.name ?? name;
}

/** Screens that are not a resource's own but show its records. */
const SCREEN_RESOURCES: Record<string, string> = {
  'upload-assigned-document.index': 'document-assignment',
  'leave-application.calendar': 'leave-application',
};

/** The resource and record a screen path names (a notification's url): the route table says which. */
function resourceOfPath(path: string): { resource: string; id: string | null } | null {
  const match = matchRoute(path);
  if (!match) return null;
  const name = match.route.name;
  if (SCREEN_RESOURCES[name]) return { resource: SCREEN_RESOURCES[name], id: null };
  for (const definition of resourceDefinitions) {
    const routes = [definition.routes, definition.owner?.routes].filter(Boolean);
    if (routes.some((r) => r && Object.values(r).includes(name))) {
      return { resource: definition.name, id: match.params.id ?? null };
    }
  }
  return null;
}

/** The change a notification's url names, or null when it names no resource. */
export function changeOfUrl(url: string | null | undefined, origin: Change['origin']): Change | null {
  if (!url) return null;
  const change = changeFromUrl(url, origin, resourceOfPath);
  return change ? { ...change, resource: canonicalResource(change.resource) } : null;
}

/**
 * After this client changed a resource (a save, delete, transition, upload, a delivered outbox item):
 * the record, the resource's lists, options and summaries, and what counts it. No id (a create, a
 * bulk change): every record of the resource.
 */
export function invalidateAfterWrite(resource: string, id?: Id | null): void {
  const name = canonicalResource(resource);
  const keys: QueryKey[] = [
    id === null || id === undefined ? queryKeys.records(name) : queryKeys.record(name, id),
    queryKeys.lists(name),
    queryKeys.options(name).slice(0, 3),
    queryKeys.summaries(name),
    ...(countedBy[name] ?? []),
  ];
  // Not awaited: what is on screen refetches in the background; the caller moves on (closes, navigates).
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/** A live event named a resource (and perhaps a record): only its lists, that record and the figures LIVE_COUNTS names refetch. */
export function invalidateLive(resource: string, id?: Id | null): void {
  const name = canonicalResource(resource);
  const keys: QueryKey[] = [queryKeys.lists(name), queryKeys.summaries(name), ...(LIVE_COUNTS[name] ?? [])];
  if (id !== null && id !== undefined) keys.push(queryKeys.record(name, id));
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/**
 * A mutation whose success invalidates what it changed (`invalidateAfterWrite`). `recordOf` names the
 * record from the answer or the variables (a create learns its id from the answer).
 */
export function useResourceMutation<TData, TVariables = void>(
  resource: string,
  mutationFn: (variables: TVariables) => Promise<TData>,
  options: Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'> & { recordOf?: (data: TData, variables: TVariables) => Id | null | undefined } = {},
) {
  const { recordOf, onSuccess, ...rest } = options;
  return useMutation<TData, Error, TVariables>({
    ...rest,
    mutationFn,
    onSuccess: async (data, variables, result, context) => {
      invalidateAfterWrite(resource, recordOf?.(data, variables) ?? idOfAnswer(data));
      await onSuccess?.(data, variables, result, context);
    },
  });
}

/** `{ data: { id } }`, the answer of a save or transition. */
function idOfAnswer(answer: unknown): Id | null {
  const data = answer && typeof answer === 'object' ? (answer as { data?: unknown }).data : null;
  const id = data && typeof data === 'object' ? (data as { id?: unknown }).id : null;
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

// ---- wiring: changes announced elsewhere, the connection, the signed-in account ----

onChange((change) => {
  if (change.origin === 'write') invalidateAfterWrite(change.resource, change.id);
  else invalidateLive(change.resource, change.id);
});

// The connection came back (the 'online' event, or a request answered by the network again): what is on
// screen may be old (served from the service worker's cache, or missed live events). Refetch it.
let wasOnline = pwa.online;
subscribe(pwa, () => {
  const isBack = pwa.online && !wasOnline;
  wasOnline = pwa.online;
  if (isBack) void queryClient.invalidateQueries({ refetchType: 'active' });
});

/** Another account signed in (or out) in this tab: nothing cached for the last one may show. */
const tokens = () => ACCOUNT_TYPES.map((account) => auth[account].token ?? '').join('|');
let lastTokens = tokens();
const onAuthChange = () => {
  const now = tokens();
  if (now === lastTokens) return;
  const signedOutOrSwitched = ACCOUNT_TYPES.some((account, i) => {
    const before = lastTokens.split('|')[i];
    return before !== '' && before !== (auth[account].token ?? '');
  });
  lastTokens = now;
  if (signedOutOrSwitched) queryClient.clear();
};
for (const account of ACCOUNT_TYPES) subscribe(auth[account], onAuthChange);
