// A list the API pages (`Link: rel="next"`), shown one page at a time with Previous and Next: the
// page holds at most one page of rows however long the history is.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { Answer } from '../api.ts';
import { Failed, Loading } from './page.tsx';

export interface Paged<T> {
  rows: T[] | undefined;
  error: unknown;
  pending: boolean;
  fetching: boolean;
  page: number;
  hasNext: boolean;
  next: () => void;
  previous: () => void;
  refetch: () => void;
}

/**
 * The pages of a list: `list(cursor)` asks for one (with its filters and `limit`), undefined while
 * there is nothing to ask. `key` names the list with its filters: a new key starts again at the first page.
 */
export function usePaged<T>(
  key: readonly unknown[],
  list: ((cursor: string | undefined) => Promise<Answer<T[]>>) | undefined,
  refetchMs?: number,
): Paged<T> {
  const base = JSON.stringify(key);
  const [pages, setPages] = useState<{ base: string; stack: string[] }>({ base, stack: [] });
  const stack = pages.base === base ? pages.stack : [];
  if (pages.base !== base) setPages({ base, stack: [] });
  const cursor = stack.at(-1);
  const q = useQuery({
    queryKey: [...key, cursor],
    queryFn: () => list!(cursor),
    enabled: list !== undefined,
    placeholderData: keepPreviousData,
    ...(refetchMs ? { refetchInterval: refetchMs } : {}),
  });
  return {
    rows: q.data?.body,
    error: q.error,
    pending: q.isPending,
    fetching: q.isFetching,
    page: stack.length + 1,
    hasNext: Boolean(q.data?.next) && !q.isPlaceholderData,
    next: () => {
      const next = q.data?.next;
      if (next) setPages({ base, stack: [...stack, next] });
    },
    previous: () => setPages({ base, stack: stack.slice(0, -1) }),
    refetch: () => void q.refetch(),
  };
}

export function Pager({ list, label }: { list: Paged<unknown>; label: string }) {
  if (list.page === 1 && !list.hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={list.page === 1} onClick={list.previous}>
        Previous
      </button>
      <span>Page {list.page}</span>
      <button type="button" disabled={!list.hasNext} onClick={list.next}>
        Next
      </button>
    </nav>
  );
}

/**
 * A paged list in its states: loading, failed with nothing to show, empty (`empty`), or its rows
 * (drawn by `children`, under the failure of a refetch if any) followed by the pager.
 */
export function PagedRows<T>({
  list,
  what,
  empty,
  pager,
  children,
}: {
  list: Paged<T>;
  what: string;
  empty: ReactNode;
  pager: string;
  children: (rows: T[]) => ReactNode;
}) {
  if (list.pending) return <Loading what={what} />;
  if (list.error && !list.rows) return <Failed error={list.error} retry={list.refetch} />;
  if (!list.rows?.length) return <p>{empty}</p>;
  return (
    <>
      {list.error ? <Failed error={list.error} retry={list.refetch} /> : null}
      {children(list.rows)}
      <Pager list={list as Paged<unknown>} label={pager} />
    </>
  );
}

/**
 * Previous and Next over the pages of a list loaded whole and shown a page at a time: page `at` of
 * `count` (and `total`, when given, beside it); nothing when the list fits one page.
 */
export function PageNav({
  at,
  count,
  label,
  total,
  onPage,
}: {
  at: number;
  count: number;
  label: string;
  total?: string;
  onPage: (page: number) => void;
}) {
  if (count <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={at === 0} onClick={() => onPage(at - 1)}>
        Previous
      </button>
      <span>
        Page {at + 1} of {count}
        {total ? ` (${total})` : null}
      </span>
      <button type="button" disabled={at + 1 >= count} onClick={() => onPage(at + 1)}>
        Next
      </button>
    </nav>
  );
}
