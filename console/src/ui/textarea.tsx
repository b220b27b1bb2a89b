// A labelled multi-line field that shows the API's problem about it beside it.
import { type ReactNode, type TextareaHTMLAttributes, useId } from 'react';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  problem?: string | undefined;
  hint?: ReactNode;
};

export function TextArea({ label, problem, hint, ...area }: TextAreaProps) {
  const id = useId();
  const described = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        {...area}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
      />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      {problem ? (
        <small id={`${id}-problem`} className="problem">
          {problem}
        </small>
      ) : null}
    </div>
  );
}
