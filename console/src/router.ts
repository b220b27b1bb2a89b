// A small router over the History API: paths under /console/, links that navigate without a
// reload, and the focus moved to the new page's heading.
import { createElement, type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

export const BASE = '/console';
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
addEventListener('popstate', notify);

/** The page's path under /console, with its query: `/applications?q=x`. */
function current(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return (p || '/') + location.search;
}

export function useLocation(): string {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, current);
}

export function navigate(to: string, replace = false): void {
  if (to === current()) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', BASE + to);
  notify();
}

export function currentPath(): string {
  return current();
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return createElement('a', { ...rest, href: BASE + to, onClick });
}

/**
 * Matches `/applications/:id` against a path; answers the parameters or undefined. `formats`: the
 * format each parameter must have (decoded), else the path matches nothing (the page is not found).
 */
export function match(
  pattern: string,
  path: string,
  formats: Record<string, RegExp> = {},
): Record<string, string> | undefined {
  const p = pattern.split('/');
  const a = path.split('?')[0]!.split('/');
  if (p.length !== a.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(':')) {
      const name = p[i]!.slice(1);
      let value: string;
      try {
        value = decodeURIComponent(a[i]!);
      } catch {
        return undefined; // a malformed escape
      }
      if (formats[name] && !formats[name].test(value)) return undefined;
      params[name] = value;
    } else if (p[i] !== a[i]) return undefined;
  }
  return params;
}

/** The query parameters of the current path. */
export function useQueryParams(): URLSearchParams {
  const loc = useLocation();
  const q = loc.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : loc.slice(q));
}
