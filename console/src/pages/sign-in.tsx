// Sign-in: username and password, posted once to /v1/console/session, which sets the session
// cookie; nothing is kept in the page's storage. Then back to the page the tenant came from.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, signIn } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { navigate, useQueryParams } from '../router.ts';
import { Alert, Field } from '../ui/form.tsx';

export function SignInPage() {
  const params = useQueryParams();
  const next = params.get('next');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const queries = useQueryClient();
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Switchboard console';
    h1.current?.focus();
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setProblem(undefined);
    try {
      const session = await signIn(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      queries.setQueryData(queryKeys.consoleSession, session);
      // Only a path of the console: never an address elsewhere.
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/applications', true);
    } catch (err) {
      setProblem(
        err instanceof ApiError && err.status === 401
          ? 'Wrong username or password.'
          : err instanceof ApiError && err.status === 429
            ? `${err.message}. Wait a moment and try again.`
            : (err as Error).message,
      );
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1 ref={h1} tabIndex={-1}>
        Sign in to Switchboard
      </h1>
      {params.get('expired') ? (
        <p className="muted">Your session ended. Sign in again to go back where you were.</p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Field label="Username" name="username" autoComplete="username" required autoCapitalize="none" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <Alert message={problem} />
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <p className="muted small">
        No account yet? An operator creates one with <code>npm run account -- create --username NAME</code>.
      </p>
    </main>
  );
}
