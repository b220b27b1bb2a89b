// A body as received (its first 4 KiB), in a scrolling box that the keyboard can reach, with a
// note when it was cut.
export function Excerpt({ label, text, truncated }: { label: string; text: string; truncated: boolean }) {
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take the focus, so a keyboard can scroll it (axe scrollable-region-focusable) */}
      <section className="excerpt" tabIndex={0} aria-label={label}>
        <pre>{text || '(empty body)'}</pre>
      </section>
      {truncated ? <p className="muted small">Cut at 4 KiB: the answer was longer.</p> : null}
    </>
  );
}
