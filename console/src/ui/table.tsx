// A table of rows that stacks into cards on narrow screens (the `stack` style): its caption for
// screen readers, one column header for each name in `heads`, the rows as children.
import type { ReactNode } from 'react';

export function Table({
  caption,
  heads,
  compact,
  children,
}: {
  caption?: ReactNode;
  heads: readonly string[];
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className={compact ? 'stack compact' : 'stack'}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
