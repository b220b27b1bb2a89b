// A labelled multi-line field that shows the API's problem about it beside it.
import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldFrame } from './form.tsx';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  problem?: string | undefined;
  hint?: ReactNode;
};

export function TextArea({ label, problem, hint, ...area }: TextAreaProps) {
  return (
    <FieldFrame
      label={label}
      problem={problem}
      hint={hint}
      control={(aria) => <textarea rows={3} {...area} {...aria} />}
    />
  );
}
