// The shell: the sign-in page while signed out; otherwise the navigation, the page of the path and
// sign-out. A 401 from any call (the session expired or was ended) shows the sign-in page, which
// then returns to the page the tenant was on.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { currentSession, onUnauthenticated, signOut } from './api.ts';
import { queryKeys } from './api/query-keys.ts';
import { SignInPage } from './pages/sign-in.tsx';
import { currentPath, Link, match, navigate, useLocation } from './router.ts';
import { NAV, ROUTES } from './routes.tsx';
import { Failed, Page } from './ui/page.tsx';

export function App() {
  const location = useLocation();
  const queries = useQueryClient();
  const [signOutError, setSignOutError] = useState<string>();

  useEffect(() => {
    onUnauthenticated((expired) => {
      const here = currentPath();
      if (here.startsWith('/sign-in')) return;
      queries.clear();
      navigate(`/sign-in?next=${encodeURIComponent(here)}${expired ? '&expired=1' : ''}`, true);
    });
  }, [queries]);

  useEffect(() => {
    if (location === '/' || location === '') navigate('/applications', true);
  }, [location]);

  const path = location.split('?')[0]!;
  const onSignIn = path === '/sign-in';
  // Asked once per page load (and after each sign-in): no page asks the API before it answers.
  const session = useQuery({
    queryKey: queryKeys.consoleSession,
    queryFn: currentSession,
    enabled: !onSignIn,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!onSignIn && session.data === null) navigate(`/sign-in?next=${encodeURIComponent(currentPath())}`, true);
  }, [onSignIn, session.data]);

  if (onSignIn) return <SignInPage />;
  if (session.isError)
    return (
      <main id="main">
        <Page title="Switchboard">
          <Failed error={session.error} retry={() => session.refetch()} />
        </Page>
      </main>
    );
  if (!session.data) return null;

  const leave = async () => {
    try {
      await signOut();
      queries.clear();
      navigate('/sign-in', true);
    } catch (e) {
      setSignOutError((e as Error).message);
    }
  };

  let content = null;
  for (const r of ROUTES) {
    const params = match(r.pattern, path, r.ids);
    if (params) {
      content = <r.page key={r.pattern + JSON.stringify(params)} params={params} />;
      break;
    }
  }

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/applications" className="brand">
          Switchboard
        </Link>
        <span className="muted small user">{session.data.user.username}</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={path === n.to || path.startsWith(`${n.to}/`) ? 'page' : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="sign-out" onClick={leave}>
            Sign out
          </button>
        </nav>
      </header>
      <main id="main">
        {signOutError ? (
          <div role="alert" className="alert">
            {signOutError}
          </div>
        ) : null}
        {content ?? (
          <Page title="Page not found">
            <p>
              There is no page at this address. <Link to="/applications">Go to your applications</Link>.
            </p>
          </Page>
        )}
      </main>
    </>
  );
}
