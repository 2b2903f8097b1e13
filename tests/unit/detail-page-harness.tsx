// One setup for the client tests that open a resource's detail page against a stubbed API (the partner
// portal's statement, the invoice's page): who is signed in, the fetch stub, the page's address and the
// generic detail screen with the resource's customization. Each file keeps only its own answers.
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { ResourceDefinition } from '../../src/shared/resources/define';
import type { LoginResponse } from '../../src/shared/schemas/auth';
import { ResourceDetail } from '../../src/client/ui/resources/resource-detail';
import { customizations } from '../../src/client/features/resources/resource-screen';
import { queryClient } from '../../src/client/lib/query';
import { clearAuth, hydrateAuth } from '../../src/client/stores/auth';

type Area = 'app' | 'partner';

/** Who signs in: a partner firm's login, or a member of staff (finance). */
export interface Person { id: number; name: string; email: string; userType: 'partner' | 'user'; role: string }

export const PARTNER_LOGIN: Person = { id: 3, name: 'Paula Partner', email: 'billing@acme.example', userType: 'partner', role: 'partner' };
export const FINANCE: Person = { id: 1, name: 'Fiona', email: 'fiona@example.com', userType: 'user', role: 'finance' };

/** The sign-in answer of `person` holding `permissions` (for `storeLogin`). */
export const loginAs = (person: Person, permissions: string[]): LoginResponse => ({
  data: {
    id: person.id, name: person.name, email: person.email, user_type: person.userType, email_verified_at: '2024-01-01', doc_assigned: false, status: 'active',
    two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null,
  },
  access_token: 'tok', permissions: { roles: [person.role], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

/** A JSON answer of the stubbed API. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/**
 * Before each test: an empty query cache, no one signed in to `area`, the page at `path`, and fetch
 * answered by `answer` (the CSRF cookie's route is answered here). After each: the screen unmounted and
 * the stubs removed.
 */
export function stubDetailPage({ area, path, answer }: { area: Area; path: string; answer: (url: string, init?: RequestInit) => Response | Promise<Response> }) {
  beforeEach(async () => {
    queryClient.clear();
    // jsdom has no CSS.escape; the form engine uses it to focus the first field with an error.
    vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
      return answer(url, init);
    }));
    document.cookie = 'XSRF-TOKEN=x';
    await hydrateAuth();
    await clearAuth(area);
    window.history.replaceState(null, '', path);
  });
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });
}

/** The generic detail page of record `id`, with the resource's customization, as `area` sees it. */
export const showDetail = (definition: ResourceDefinition, area: Area, id: string) =>
  render(<ResourceDetail definition={definition} account={area} id={id} customization={customizations[definition.name]} />);
