// A signing secret block shared by applications and webhooks: the masked value, reveal and hide,
// copy (revealing it first when hidden), and rotate behind a confirmation. `owner`: the webhook or
// the application whose secret it is.
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError, body } from '../api.ts';
import { type Owner, readSecret, rotateSecret } from '../api/owner.ts';
import { Confirm } from './dialog.tsx';
import { Alert, generalProblem } from './form.tsx';

export function SigningSecret({
  owner,
  headingId,
  about,
  rotateTitle,
  rotateText,
}: {
  owner: Owner;
  headingId: string;
  about: ReactNode;
  rotateTitle: string;
  rotateText: ReactNode;
}) {
  const [secret, setSecret] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [said, setSaid] = useState<string>();
  const reveal = useMutation({
    mutationFn: () => body(readSecret(owner)),
    onSuccess: (r) => setSecret(r.secret),
  });
  const rotate = useMutation({
    mutationFn: () => body(rotateSecret(owner)),
    onSuccess: (r) => {
      setSecret(r.secret);
      setSaid('Rotated: the previous secret keeps signing for 24 hours.');
    },
  });
  const copy = async () => {
    try {
      const value = secret ?? (await reveal.mutateAsync()).secret;
      await navigator.clipboard.writeText(value);
      setSaid('Secret copied.');
    } catch (e) {
      setSaid(e instanceof ApiError ? undefined : 'Copy failed: reveal the secret and copy it by hand.');
    }
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Signing secret</h2>
      <p className="muted small">{about}</p>
      <div className="secret">
        <output aria-label="Secret value" className="code">
          {secret ?? 'whsec_••••••••••••••••••••••••'}
        </output>
        {secret ? (
          <button type="button" onClick={() => setSecret(undefined)}>
            Hide secret
          </button>
        ) : (
          <button type="button" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
            Reveal secret
          </button>
        )}
        <button type="button" onClick={copy}>
          Copy secret
        </button>
        <button type="button" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          Rotate secret
        </button>
      </div>
      <p role="status" className="status">
        {said}
      </p>
      <Alert message={generalProblem(reveal.error ?? rotate.error)} />
      <Confirm
        open={confirming}
        title={rotateTitle}
        confirm="Rotate"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          rotate.mutate();
        }}
      >
        <p>{rotateText}</p>
      </Confirm>
    </section>
  );
}
