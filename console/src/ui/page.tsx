// A page: its heading (focused when the page opens, so a screen reader announces it) and the
// loading and error states of its data.
import { type ReactNode, useEffect, useRef } from 'react';

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
