// The addresses of an application: numbers claimed by exchange or city, tokens of the Session
// API, SIP addresses, drawn 50 at a time (the API answers them all); each can be moved to another
// application or released.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Address, body, client, type Exchange } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { CopyButton } from '../ui/copy.tsx';
import { ConfirmItem } from '../ui/dialog.tsx';
import { ApplicationPicker } from '../ui/application-picker.tsx';
import { Alert, generalProblem, Select } from '../ui/form.tsx';
import { Failed, Loading } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { PageNav } from '../ui/paged.tsx';
import { useApplications } from './applications.tsx';

const PAGE = 50;

/** The address's value as the API's paths name it. */
const addressValue = (a: Address) => a.number ?? a.token ?? a.address ?? '';

function label(a: Address): string {
  if (a.type === 'number')
    return `${a.displayNumber ?? a.number}${a.city ? ` (${[a.city, a.state].filter(Boolean).join(', ')})` : ''}`;
  if (a.type === 'token') return `${a.channel} token ${a.token?.slice(0, 12)}…`;
  return a.address ?? '';
}

const exchangeLabel = (e: Exchange) =>
  `${[e.city, e.state, e.country].filter(Boolean).join(', ') || 'Unnamed exchange'} (+${e.prefix})`;

function MoveDialog({ appId, address, onClose }: { appId: string; address: Address | undefined; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const queries = useQueryClient();
  const apps = useApplications(false);
  const [to, setTo] = useState<string>();
  const move = useMutation({
    mutationFn: (to: string) =>
      body(
        client.POST('/v1/applications/{id}/addresses/{type}/{address}', {
          params: { path: { id: to, type: address!.type, address: addressValue(address!) } },
        }),
      ),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.anyApplication });
      onClose();
    },
  });
  useEffect(() => {
    const d = ref.current!;
    if (address && !d.open) {
      setTo(undefined);
      move.reset();
      d.showModal();
    }
    if (!address && d.open) d.close();
  }, [address, move.reset]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (to) move.mutate(to);
  };
  // Whether there is another application to move to (the first page of them tells).
  const noOther = apps.complete && (apps.all ?? []).every((a) => a.id === appId);
  return (
    <dialog ref={ref} aria-labelledby="move-title" onClose={onClose}>
      <h2 id="move-title">Move {address ? label(address) : ''}</h2>
      <form onSubmit={submit}>
        {apps.pending ? (
          <Loading what="applications" />
        ) : noOther ? (
          <p>There is no other application to move it to.</p>
        ) : address ? (
          <ApplicationPicker label="Move to" value={to} onChange={setTo} exclude={appId} />
        ) : null}
        <Alert message={generalProblem(move.error ?? apps.error)} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!to || move.isPending}>
            Move
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function Addresses({ appId }: { appId: string }) {
  const queries = useQueryClient();
  const key = queryKeys.addresses(appId);
  const list = useQuery({
    queryKey: key,
    queryFn: () => body(client.GET('/v1/applications/{id}/addresses', { params: { path: { id: appId } } })),
  });
  const exchanges = useQuery({ queryKey: queryKeys.exchanges, queryFn: () => body(client.GET('/v1/exchanges')) });
  const [said, setSaid] = useState<string>();
  const [moving, setMoving] = useState<Address>();
  const [releasing, setReleasing] = useState<Address>();
  const [page, setPage] = useState(0);
  const done = async (message: string) => {
    setSaid(message);
    await queries.invalidateQueries({ queryKey: key });
    await queries.invalidateQueries({ queryKey: queryKeys.exchanges });
  };
  const claim = useMutation({
    mutationFn: (claimed: { type: Address['type']; prefix?: string; number?: string; channel?: string }) =>
      body(client.POST('/v1/applications/{id}/addresses', { params: { path: { id: appId } }, body: claimed })),
    onSuccess: (r, body) =>
      done(
        body.type === 'number'
          ? `Claimed ${decodeURIComponent(r.href.split('/').pop()!)}.`
          : body.type === 'token'
            ? 'Token created.'
            : 'SIP address created.',
      ),
  });
  const release = useMutation({
    mutationFn: (a: Address) =>
      body(
        client.DELETE('/v1/applications/{id}/addresses/{type}/{address}', {
          params: { path: { id: appId, type: a.type, address: addressValue(a) } },
        }),
      ),
    onSuccess: (_r, a) => done(`Released ${label(a)}.`),
  });

  const claimNumber = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const ex = exchanges.data?.[Number(new FormData(e.currentTarget).get('exchange'))];
    if (!ex) return;
    claim.mutate({
      type: 'number',
      prefix: ex.prefix,
      ...(ex.city ? { city: ex.city } : {}),
      ...(ex.state ? { state: ex.state } : {}),
    });
  };
  const createToken = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    claim.mutate({ type: 'token', channel: String(new FormData(e.currentTarget).get('channel')) });
  };

  const pageCount = Math.max(1, Math.ceil((list.data?.length ?? 0) / PAGE));
  // A release may empty the last page: the last page there is.
  const at = Math.min(page, pageCount - 1);
  const shown = list.data?.slice(at * PAGE, at * PAGE + PAGE) ?? [];
  return (
    <section aria-labelledby="addresses">
      <h2 id="addresses">Addresses</h2>
      {list.isPending ? (
        <Loading what="addresses" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">
          No numbers, tokens or SIP addresses yet: calls reach this application through one of them.
        </p>
      ) : (
        <Table caption="Addresses of the application" heads={['Type', 'Address', 'Actions']}>
          {shown.map((a) => (
            <tr key={a.href}>
              <td data-label="Type">{a.type === 'sip' ? 'SIP' : a.type}</td>
              <td data-label="Address" className="url">
                {a.type === 'token' ? <code>{a.token}</code> : label(a)}
                {a.type === 'token' ? <span className="muted small"> ({a.channel})</span> : null}
              </td>
              <td data-label="Actions">
                <div className="actions">
                  {a.type === 'token' ? <CopyButton value={a.token!} label="Copy token" /> : null}
                  <button type="button" onClick={() => setMoving(a)} aria-label={`Move ${label(a)}`}>
                    Move
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => setReleasing(a)}
                    aria-label={`Release ${label(a)}`}
                  >
                    Release
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <PageNav
        at={at}
        count={pageCount}
        label="Pages of addresses"
        total={`${list.data?.length} addresses`}
        onPage={setPage}
      />
      <div className="claims">
        <form onSubmit={claimNumber} className="inline-form" aria-label="Claim a number">
          {exchanges.isError ? (
            <Failed error={exchanges.error} />
          ) : exchanges.data?.length === 0 ? (
            <p className="muted">No free numbers in the inventory.</p>
          ) : (
            <Select label="Exchange or city" name="exchange" disabled={!exchanges.data}>
              {(exchanges.data ?? []).map((e, i) => (
                <option key={`${e.prefix}-${e.city}-${e.state}`} value={i}>
                  {exchangeLabel(e)}
                </option>
              ))}
            </Select>
          )}
          <button type="submit" disabled={!exchanges.data?.length || claim.isPending}>
            Claim number
          </button>
        </form>
        <form onSubmit={createToken} className="inline-form" aria-label="Create a token">
          <Select label="Channel" name="channel">
            <option value="voice">Voice</option>
            <option value="messaging">Messaging</option>
          </Select>
          <button type="submit" disabled={claim.isPending}>
            Create token
          </button>
        </form>
        <div className="inline-form">
          <button type="button" onClick={() => claim.mutate({ type: 'sip' })} disabled={claim.isPending}>
            Create SIP address
          </button>
        </div>
      </div>
      <p role="status" className="status">
        {said}
      </p>
      <Alert message={generalProblem(claim.error ?? release.error)} />
      <MoveDialog appId={appId} address={moving} onClose={() => setMoving(undefined)} />
      <ConfirmItem
        item={releasing}
        clear={() => setReleasing(undefined)}
        act={(a) => release.mutate(a)}
        title={`Release ${releasing ? label(releasing) : ''}?`}
        confirm="Release"
      >
        <p>
          {releasing?.type === 'number'
            ? 'The number goes back to the inventory, where anyone may claim it.'
            : 'It stops working at once.'}
        </p>
      </ConfirmItem>
    </section>
  );
}
