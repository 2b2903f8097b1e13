// Navigation from outside React (the API wrapper): wouter's browser-location navigate.
import { navigate as wouterNavigate } from 'wouter/use-browser-location';
import { matchRoute, routePath, type AccountType } from '../../shared/routes';

export function navigate(to: string, options: { replace?: boolean } = {}) {
  wouterNavigate(to, options);
}

export function goToRoute(name: string, params?: Record<string, string | number>, options?: { replace?: boolean }) {
  navigate(routePath(name, params), options);
}

/** spec §4: partner versions of the auth routes live under /partner. */
export const routeFor = (account: AccountType, name: string) => (account === 'partner' ? `partner.${name}` : name);

export const homeRoute = (account: AccountType) => routeFor(account, 'dashboard');
export const loginRoute = (account: AccountType) => routeFor(account, 'login');

export function isPartnerPath(pathname: string) {
  return pathname === '/partner' || pathname.startsWith('/partner/');
}

/** The account type of the area the browser is in now. */
export function currentArea(): AccountType {
  return typeof window !== 'undefined' && isPartnerPath(window.location.pathname) ? 'partner' : 'app';
}

/**
 * Opens a url the server gave (notification links): in-app when it is on our origin,
 * a full page load otherwise.
 */
export function openUrl(url: string) {
  const target = new URL(url, window.location.origin);
  if (target.origin === window.location.origin) navigate(`${target.pathname}${target.search}${target.hash}`);
  else window.location.assign(target.href);
}

/**
 * Set by the authenticated layout when it moves to another page; that page's heading then takes focus,
 * so keyboard and screen-reader users start on the new page (a title change alone is not announced).
 * `isTouched`: the person has pressed a key, clicked or tapped since the move.
 */
export const routeFocus = { isPending: false, isTouched: false };

const touched = () => { routeFocus.isTouched = true; };
let isListening = false;

/** The layout moves to another page: its heading is to take the focus once drawn (`takeRouteFocus`). */
export function markRouteChange() {
  routeFocus.isPending = true;
  routeFocus.isTouched = false;
  // The press that made the move came before it: only a later one counts. Listened to as the events
  // go down (capture), the click that made the move reaches these listeners before the app's own.
  if (isListening || typeof document === 'undefined') return;
  isListening = true;
  // A screen reader activating a control sends a click alone, without a press before it.
  for (const type of ['pointerdown', 'keydown', 'click']) document.addEventListener(type, touched, true);
}

/**
 * The new page's heading takes the focus, once, unless the person has done something since the move.
 * A page may draw its heading seconds later (the dashboard's waits for its answers, decision 046): by
 * then they may have opened a menu of the header, and taking the focus from it would close it under their
 * finger (the outbox menu's Fix vanished so, decision 057). Whatever moves the focus by itself meanwhile
 * (a menu that hands it back to its button once an item led here) is no reason to keep it there.
 */
export function takeRouteFocus(heading: HTMLElement | null) {
  if (!routeFocus.isPending) return;
  routeFocus.isPending = false;
  if (!routeFocus.isTouched) heading?.focus({ preventScroll: true });
}

/** spec §2: a route query parameter that triggers email verification on load. */
export const VERIFICATION_PARAM = 'verification_url';

/**
 * The page a signed-out person was opening, kept through sign-in: spec §4 sends them to login first,
 * and a manager who opens an approval from an email should land on it, not on the dashboard.
 */
export const RETURN_PARAM = 'return_to';

/** The page to return to after signing in, from the login page's query: a page of this account's own area on this site, or none. */
export function returnPathFrom(search: string, account: AccountType): string | null {
  const value = new URLSearchParams(search).get(RETURN_PARAM);
  // Only a path of this site: not "//elsewhere.example" nor a full address (no redirect off the site).
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const target = new URL(value, 'http://this.site');
  if (target.origin !== 'http://this.site' || isPartnerPath(target.pathname) !== (account === 'partner')) return null;
  const route = matchRoute(target.pathname)?.route;
  // A page behind sign-in other than the home page, where the sign-in goes anyway.
  if (!route || (route.kind !== 'app' && route.kind !== 'auth') || route.name === homeRoute(account)) return null;
  return `${target.pathname}${target.search}${target.hash}`;
}

/** Login's address, keeping `page` (a path with its query) to come back to when it is worth it. */
export function loginPathFor(account: AccountType, page?: string): string {
  const login = routePath(loginRoute(account));
  const back = page && returnPathFrom(`?${RETURN_PARAM}=${encodeURIComponent(page)}`, account);
  return back ? `${login}?${RETURN_PARAM}=${encodeURIComponent(back)}` : login;
}
