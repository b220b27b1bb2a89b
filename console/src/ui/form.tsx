// Form parts: a labelled field that shows the API's problem about it beside it, and an alert
// region for the problems that name no field.
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { ApiError } from '../api.ts';

/** The problem of each field an ApiError names, by field name (JSON pointer or plain name). */
export function fieldProblems(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError)
    for (const f of error.fields) {
      const name = f.field.replace(/^\/|^body\./, '').split(/[./]/)[0]!;
      out[name] = out[name] ? `${out[name]}; ${f.message}` : f.message;
    }
  return out;
}

/** The message to show in the alert region: the problem unless every part of it is shown beside a field. */
export function generalProblem(error: unknown, fields: readonly string[] = []): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError) {
    const named = error.fields.length > 0 && Object.keys(fieldProblems(error)).every((f) => fields.includes(f));
    return named ? undefined : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function Alert({ message }: { message: string | undefined }) {
  return (
    <div role="alert" className={message ? 'alert' : 'alert-empty'}>
      {message}
    </div>
  );
}

/** The id and ARIA attributes a labelled control takes from its FieldFrame. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with its hint and the API's problem about it below it: `control` draws the
 * input, select or textarea with the attributes that tie it to its label, hint and problem.
 */
export function FieldFrame({
  label,
  problem,
  hint,
  control,
}: {
  label: string;
  problem?: string | undefined;
  hint?: ReactNode;
  control: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described || undefined })}
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** The API's problem about a field, below it (`${id}-problem`, which the control names in aria-describedby). */
export function Problem({ id, problem }: { id: string; problem: string | undefined }) {
  return problem ? (
    <small id={`${id}-problem`} className="problem">
      {problem}
    </small>
  ) : null;
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  problem?: string | undefined;
  hint?: ReactNode;
};

export function Field({ label, problem, hint, ...input }: FieldProps) {
  return <FieldFrame label={label} problem={problem} hint={hint} control={(aria) => <input {...input} {...aria} />} />;
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; problem?: string | undefined };

export function Select({ label, problem, children, ...select }: SelectProps) {
  return (
    <FieldFrame
      label={label}
      problem={problem}
      control={(aria) => (
        <select {...select} {...aria}>
          {children}
        </select>
      )}
    />
  );
}

/** A form's buttons: its primary submit (`submit`, disabled while `disabled`) and Cancel. */
export function FormActions({
  submit,
  disabled,
  onCancel,
}: {
  submit: string;
  disabled: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={disabled}>
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** The values of a submitted form's named fields. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) if (typeof v === 'string') out[k] = v;
  return out;
}
