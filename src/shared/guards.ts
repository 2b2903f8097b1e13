// spec §4 "Route guards" as one pure decision, so the table can be unit-tested without a browser.
import { hasPermission } from './permission-check';
import type { AccountType, RouteDefinition } from './routes';

export interface GuardInput {
  /** The matched route, or null for an unknown path. */
  route: RouteDefinition | null;
  pathname: string;
  /** Which account types hold a token in this browser. */
  authenticated: Record<AccountType, boolean>;
  /** Permissions of the app account (partner routes check the partner's). */
  permissions: Record<AccountType, readonly string[]>;
}

export type GuardDecision =
  | { action: 'render'; account: AccountType }
  | { action: 'redirect'; to: string }
  | { action: 'not-found'; account: AccountType };

export function decideRoute({ route, pathname, authenticated, permissions }: GuardInput): GuardDecision {
  const underPartner = pathname === '/partner' || pathname.startsWith('/partner/');
  // spec §2: visiting /partner alone redirects to partner.login (or the partner dashboard when logged in).
  if (pathname.replace(/\/+$/, '') === '/partner') {
    return { action: 'redirect', to: authenticated.partner ? 'partner.dashboard' : 'partner.login' };
  }
  if (!route) return { action: 'not-found', account: underPartner ? 'partner' : 'app' };

  const own = route.account;
  const other: AccountType = own === 'app' ? 'partner' : 'app';
  const home = (account: AccountType) => (account === 'app' ? 'dashboard' : 'partner.dashboard');

  switch (route.kind) {
    case 'external':
      return { action: 'render', account: own };
    case 'guest':
      // A logged-in account is sent to its dashboard; the route's own account type wins.
      if (authenticated[own]) return { action: 'redirect', to: home(own) };
      if (authenticated[other]) return { action: 'redirect', to: home(other) };
      return { action: 'render', account: own };
    case 'auth':
    case 'app':
      if (!authenticated[own]) {
        // An app user opening a partner route goes to dashboard, and the other way round.
        if (authenticated[other]) return { action: 'redirect', to: home(other) };
        return { action: 'redirect', to: own === 'app' ? 'login' : 'partner.login' };
      }
      if (route.kind === 'app' && !hasPermission(permissions[own], route.permission)) {
        return { action: 'redirect', to: own === 'app' ? 'access-denied' : 'partner.dashboard' };
      }
      return { action: 'render', account: own };
  }
}
