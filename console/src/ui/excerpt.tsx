// A body as sent or received (its first KiBs), in a scrolling box that the keyboard can reach, with a
// note when it was cut.
export function Excerpt({
  label,
  text,
  truncated,
  cutNote = 'Cut at 4 KiB: the answer was longer.',
}: {
  label: string;
  text: string;
  truncated: boolean;
  /** What the note says when the body was cut. */
  cutNote?: string;
}) {
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take the focus, so a keyboard can scroll it (axe scrollable-region-focusable) */}
      <section className="excerpt" tabIndex={0} aria-label={label}>
        <pre>{text || '(empty body)'}</pre>
      </section>
      {truncated ? <p className="muted small">{cutNote}</p> : null}
    </>
  );
}

/** JSON text indented for reading; a body that is not whole JSON (cut, or not JSON) as it is. */
export function formatJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
