// The application picker: an ARIA combobox (a text input and its listbox) that chooses one of the
// account's applications however many there are. Typing filters the applications the shared
// query has loaded (the API has no name filter; the picker asks for the rest of the pages once it
// is used), and the list draws at most 50 options: the status under it says how many match.
// Keys: Down and Up open the list and move in it, Enter chooses, Escape (or Tab) closes it and
// puts the chosen name back.
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Application, body, client } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { searchApplications, useApplications } from '../pages/applications.tsx';

/** The most options the list draws at once. */
export const PICKER_OPTIONS = 50;

/** One application by id: from the loaded pages when it is there, else asked for alone. */
export function useApplication(id: string | undefined): { app: Application | undefined; error: unknown } {
  const { all, pending } = useApplications(false);
  const loaded = id ? all?.find((a) => a.id === id) : undefined;
  const alone = useQuery({
    queryKey: queryKeys.application(id ?? ''),
    queryFn: () => body(client.GET('/v1/applications/{id}', { params: { path: { id: id! } } })),
    enabled: Boolean(id) && !pending && !loaded,
  });
  return { app: loaded ?? alone.data, error: loaded ? null : alone.error };
}

interface Choice {
  id: string | undefined;
  text: string;
  detail?: string | undefined;
}

export interface ApplicationPickerProps {
  label: string;
  /** The chosen application's id; undefined for none (or the `none` choice). */
  value: string | undefined;
  onChange: (id: string | undefined) => void;
  /** The text of a choice of no application, offered first (e.g. "The account"). */
  none?: string;
  /** An application not offered (the one an address moves away from). */
  exclude?: string;
}

export function ApplicationPicker({ label, value, onChange, none, exclude }: ApplicationPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;
  // Every page is asked for once the picker is used, not before.
  const [used, setUsed] = useState(false);
  const apps = useApplications(used);
  const { app: chosen } = useApplication(value);
  const chosenText = value ? (chosen?.name ?? value) : (none ?? '');
  const [open, setOpen] = useState(false);
  /** What the tenant typed; undefined while the input shows the chosen name. */
  const [query, setQuery] = useState<string>();
  const [active, setActive] = useState(0);

  const found = useMemo(
    () => searchApplications(apps.all ?? [], query ?? '').filter((a) => a.id !== exclude),
    [apps.all, query, exclude],
  );
  const typed = (query ?? '').trim().toLowerCase();
  const choices: Choice[] = [
    ...(none && (!typed || none.toLowerCase().includes(typed)) ? [{ id: undefined, text: none }] : []),
    ...found.slice(0, PICKER_OPTIONS).map((a) => ({ id: a.id, text: a.name, detail: a.voiceUrl ?? a.messagingUrl })),
  ];
  const shown = open && choices.length > 0;

  // The active option scrolled into the list's view (the list only, never the page).
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = list.current;
    const option = shown ? box?.children[active] : undefined;
    if (!box || !(option instanceof HTMLElement)) return;
    if (option.offsetTop < box.scrollTop) box.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = option.offsetTop + option.offsetHeight - box.clientHeight;
  }, [shown, active]);

  const start = () => {
    setUsed(true);
    setOpen(true);
    const at = query === undefined ? choices.findIndex((c) => c.id === value) : 0;
    setActive(Math.max(0, at));
  };
  const close = () => {
    setOpen(false);
    setQuery(undefined);
  };
  const choose = (c: Choice) => {
    close();
    if (c.id !== value) onChange(c.id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return start();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(Math.min(Math.max(active + step, 0), choices.length - 1));
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      if (!shown) return;
      e.preventDefault();
      setActive(e.key === 'PageDown' ? Math.min(active + 10, choices.length - 1) : Math.max(active - 10, 0));
    } else if (e.key === 'Enter') {
      if (!shown || !choices[active]) return;
      e.preventDefault();
      choose(choices[active]);
    } else if (e.key === 'Escape') {
      if (!open && query === undefined) return;
      // The list closes, not the dialog the picker may be in.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') close();
  };

  const loading = apps.pending || !apps.complete;
  const status = !open
    ? ''
    : apps.pending
      ? 'Loading applications…'
      : found.length === 0
        ? `No application matches${loading ? ' among those loaded so far' : ''}.`
        : (found.length === 1 ? '1 application' : `${found.length} applications`) +
          (typed ? (found.length === 1 ? ' matches' : ' match') : '') +
          (found.length > PICKER_OPTIONS ? `, the first ${PICKER_OPTIONS} listed: type more of a name to narrow` : '') +
          (loading ? ` (${apps.all?.length ?? 0} loaded, loading the rest…)` : '.');

  return (
    <div className="field picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && choices[active] ? optionId(active) : undefined}
        aria-describedby={`${id}-status`}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type to search applications"
        value={query ?? chosenText}
        onFocus={(e) => {
          setUsed(true);
          e.currentTarget.select();
        }}
        onClick={() => (open ? undefined : start())}
        onChange={(e) => {
          setUsed(true);
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {/* A press on the list keeps the focus in the input (the input's blur would close it). */}
      <div
        ref={list}
        id={listId}
        role="listbox"
        aria-label="Matches"
        hidden={!shown}
        onMouseDown={(e) => e.preventDefault()}
      >
        {shown
          ? choices.map((c, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the combobox input (aria-activedescendant), which keeps the focus
              <div
                key={c.id ?? ''}
                id={optionId(i)}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className={c.id === value ? 'chosen' : undefined}
                onClick={() => choose(c)}
                onMouseMove={() => (i === active ? undefined : setActive(i))}
              >
                <span>{c.text}</span>
                {c.detail ? <span className="muted small url">{c.detail}</span> : null}
              </div>
            ))
          : null}
      </div>
      <small id={`${id}-status`} role="status" className="hint">
        {status}
      </small>
    </div>
  );
}
