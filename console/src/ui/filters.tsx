// The filter form of a list page: its fields, "Filter", and "Clear filters" while a filter is set.
// Give it a `key` of the filters applied, so a change from elsewhere (a link, Clear) shows in it.
import type { FormEvent, ReactNode } from 'react';
import { Field, Select } from './form.tsx';
import { localFromIso } from './time.ts';

export function FilterForm({
  label,
  onSubmit,
  onClear,
  children,
}: {
  label: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  /** Shown as "Clear filters" when given. */
  onClear?: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <form className="card filters" onSubmit={onSubmit} aria-label={label}>
      {children}
      <div className="actions">
        <button type="submit" className="primary">
          Filter
        </button>
        {onClear ? (
          <button type="button" onClick={onClear}>
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A choice among `choices` (a value, or a value and its text) or none: `any` ("Any outcome"). */
export function ChoiceFilter({
  label,
  name,
  any,
  choices,
  value,
}: {
  label: string;
  name: string;
  any: string;
  choices: readonly (string | readonly [value: string, text: string])[];
  value: string;
}) {
  return (
    <Select label={label} name={name} defaultValue={value}>
      <option value="">{any}</option>
      {choices.map((c) => {
        const [v, text] = typeof c === 'string' ? [c, c] : c;
        return (
          <option key={v} value={v}>
            {text}
          </option>
        );
      })}
    </Select>
  );
}

/** The Since and Until fields of a time filter (ISO values, shown in local time). */
export function TimeRangeFilter({ since, until }: { since: string; until: string }) {
  return (
    <>
      <Field label="Since" name="since" type="datetime-local" step={1} defaultValue={localFromIso(since)} />
      <Field label="Until" name="until" type="datetime-local" step={1} defaultValue={localFromIso(until)} />
    </>
  );
}
