// A page: its heading (focused when the page opens, so a screen reader announces it) and the
// loading and error states of its data.
import { type ReactNode, useEffect, useRef } from 'react';
import { ApiError } from '../api.ts';
import { Link } from '../router.ts';

export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    h1.current?.focus();
  }, []);
  useEffect(() => {
    document.title = `${typeof title === 'string' ? title : 'Switchboard'} · Switchboard console`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 ref={h1} tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div className="actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** A failed query: its problem in an alert, with a retry. */
export function Failed({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div role="alert" className="alert">
      {error instanceof Error ? error.message : String(error)}{' '}
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/**
 * The page of one resource (`kind`: Application, Webhook…) while its query has nothing to show:
 * loading, or failed (titled "… not found" on a 404) with a retry and a link back.
 */
export function NotLoaded({
  query,
  kind,
  back,
  backText,
}: {
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  kind: string;
  back: string;
  backText: string;
}) {
  if (query.isPending)
    return (
      <Page title={kind}>
        <Loading what={`the ${kind.toLowerCase()}`} />
      </Page>
    );
  return (
    <Page title={query.error instanceof ApiError && query.error.status === 404 ? `${kind} not found` : kind}>
      <Failed error={query.error} retry={() => query.refetch()} />
      <p>
        <Link to={back}>{backText}</Link>
      </p>
    </Page>
  );
}
