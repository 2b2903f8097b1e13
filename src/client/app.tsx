// The router: every navigation goes through decideRoute (spec §4) with the hydrated auth state.
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { decideRoute } from '../shared/guards';
import { matchRoute, routePath, type AccountType } from '../shared/routes';
import { pageTitle } from './lib/config';
import { loginPathFor, VERIFICATION_PARAM } from './lib/navigation';
import { CORNER_TOASTS, loadToasts, setCornerMounted, TOAST_SETTINGS, toasts } from './lib/toast';
import { isBuilt, NotFound, screens, type LayoutKind } from './routes';
import { auth } from './stores/auth';
import { firm } from './stores/firm';
import { ui } from './stores/ui';
import { GuestLayout } from './layout/guest-layout';
import { PlainLayout } from './layout/plain-layout';
import { UpdatePrompt } from './layout/update-prompt';
import { ScreenLoading } from './ui/loading';

// The authenticated shells carry the menus, headless UI and the bell: only signed-in visitors load them.
const AppLayout = lazy(() => import('./layout/app-layout'));
const PartnerLayout = lazy(() => import('./layout/partner-layout'));



function useTitle(title: string | null) {
  const { name } = useSnapshot(firm);
  useEffect(() => {
    if (title) document.title = pageTitle(title, name);
  }, [title, name]);
}

function Layout({ kind, account, routeName, children }: { kind: LayoutKind; account: AccountType; routeName: string; children: ReactNode }) {
  if (kind === 'guest') return <GuestLayout routeName={routeName}>{children}</GuestLayout>;
  if (kind === 'plain') return <PlainLayout>{children}</PlainLayout>;
  const Shell = account === 'partner' ? PartnerLayout : AppLayout;
  return (
    <Suspense fallback={<FullPageLoading />}>
      <Shell routeName={routeName}>{children}</Shell>
    </Suspense>
  );
}

function FullPageLoading() {
  return <div className="flex min-h-screen items-center justify-center"><ScreenLoading /></div>;
}

export function RouterView() {
  const [pathname] = useLocation();
  const search = useSearch();
  const app = useSnapshot(auth.app);
  const partner = useSnapshot(auth.partner);

  const match = matchRoute(pathname);
  const built = match && isBuilt(match.route.name) ? match : null;
  // Guards apply to every route of the table (spec §4), built or not; an unbuilt one that would render is not found.
  const decision = decideRoute({
    route: match?.route ?? null,
    pathname,
    authenticated: { app: app.isAuthenticated && !!app.token, partner: partner.isAuthenticated && !!partner.token },
    permissions: { app: app.permissions.permissions, partner: partner.permissions.permissions },
  });

  // A route of the table whose screen is not built yet renders not-found, and says so in the title too.
  useTitle(decision.action === 'redirect' ? null : decision.action === 'render' && built ? built.route.title : 'Not Found');

  if (decision.action === 'redirect') {
    const verification = new URLSearchParams(search).get(VERIFICATION_PARAM);
    // A verification link lands on the dashboard; someone who may not open it still verifies, on the one
    // screen of the authenticated layout (which follows the link) that every signed-in account may open.
    const target = verification && decision.to === 'access-denied' ? 'notification.index' : decision.to;
    let to = routePath(target);
    // The link also survives the trip through login.
    if (verification && ['login', 'partner.login', 'notification.index'].includes(target)) {
      to += `?${VERIFICATION_PARAM}=${encodeURIComponent(verification)}`;
    } else if (target === 'login' || target === 'partner.login') {
      // Signed out on the way to a page: signed in, they land on it (lib/navigation.ts).
      to = loginPathFor(target === 'login' ? 'app' : 'partner', `${pathname}${search ? `?${search}` : ''}`);
    }
    // Keyed: wouter's Redirect navigates once per mount, and chains (/ -> /dashboard -> /access-denied) need each hop.
    return <Redirect key={to} to={to} replace />;
  }

  if (decision.action === 'not-found' || !built) {
    const account = decision.account;
    return (
      <PlainLayout>
        <Suspense fallback={<ScreenLoading />}>
          <NotFound account={account} params={{}} routeName={account === 'partner' ? 'not-found-partner' : 'not-found'} />
        </Suspense>
      </PlainLayout>
    );
  }

  const entry = screens[built.route.name];
  const Screen = entry.component;
  return (
    <Layout kind={entry.layout} account={decision.account} routeName={built.route.name}>
      <Suspense fallback={<ScreenLoading />}>
        <Screen key={built.route.name} account={decision.account} params={built.params} routeName={built.route.name} />
      </Suspense>
    </Layout>
  );
}

/** The containers arrive with the first toast (lib/toast). */
const ToastContainer = lazy(() => loadToasts().then((module) => ({ default: module.ToastContainer })));

/** Tells lib/toast that the corner's container, mounted just before it in the same boundary, takes toasts. */
function CornerMounted() {
  useEffect(() => {
    setCornerMounted(true);
    return () => setCornerMounted(false);
  }, []);
  return null;
}

export function App() {
  const { theme } = useSnapshot(ui);
  const { isLoaded } = useSnapshot(toasts);
  return (
    <>
      <RouterView />
      <UpdatePrompt />
      {isLoaded && (
        <Suspense fallback={null}>
          {/* lib/toast.ts chooses between them; styles.css places them (layout/toast-room.ts). */}
          <ToastContainer {...TOAST_SETTINGS} className="toasts-bar" theme={theme === 'dark' ? 'dark' : 'light'} newestOnTop />
          {/* Its own name: two landmarks both called "Notifications" could not be told apart. Alt+T reaches its toasts first. */}
          <ToastContainer {...TOAST_SETTINGS} position="bottom-left" containerId={CORNER_TOASTS} className={CORNER_TOASTS} aria-label="More notifications Alt+T" theme={theme === 'dark' ? 'dark' : 'light'} newestOnTop />
          <CornerMounted />
        </Suspense>
      )}
    </>
  );
}
