// One property of a resource's page (a `<dl className="props">` list): its name, and its value as
// the page shows it. The session, delivery, webhook and application pages list their properties so.
import type { ReactNode } from 'react';

/** A name and its value; `className` marks the value (`url`: wraps anywhere; `problem`: shown as one). */
export function Prop({
  name,
  className,
  children,
}: {
  name: ReactNode;
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="prop">
      <dt>{name}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
