// A confirmation in a modal <dialog>: the browser traps the focus in it and Escape cancels.
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function Confirm(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirm: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const title = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={title} onClose={props.onCancel}>
      <h2 id={title}>{props.title}</h2>
      {props.children}
      <div className="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}

/**
 * A danger Confirm about one item the page holds (`item`; closed while there is none): Cancel forgets
 * it (`clear`); the confirm button forgets it, then acts on it (`act`).
 */
export function ConfirmItem<T>({
  item,
  clear,
  act,
  title,
  confirm,
  children,
}: {
  item: T | undefined;
  clear: () => void;
  act: (item: T) => void;
  title: string;
  confirm: string;
  children?: ReactNode;
}) {
  return (
    <Confirm
      open={!!item}
      title={title}
      confirm={confirm}
      danger
      onCancel={clear}
      onConfirm={() => {
        const held = item!;
        clear();
        act(held);
      }}
    >
      {children}
    </Confirm>
  );
}
