// The static codecs of packages/proto (codec.ts, writer.ts: plain objects straight to and from the
// wire, decision 0003) against protobufjs with the same conventions (int64 as decimal strings, enums
// as names, defaults filled in; LOADER_OPTIONS): CPU per encode + decode of the messages the gRPC
// services send most. protobufjs two ways:
//   - "loader": what @grpc/proto-loader does, `encode(fromObject(v))` and `toObject(decode(b), opts)`;
//   - "pbjs": `encode(m)` of a message already in the library's own shape (made outside the
//     measure: enums as numbers) and `toObject(decode(b), opts)`: what protobufjs static code
//     (`pbjs -t static-module`: the same generated functions reflection builds at run time) costs
//     at least while the services keep the conventions.
// Each codec's bytes are checked to decode to the same object as the others' first.
// Run: npx tsx --conditions=@switchboard/source bench/micro/proto-codecs.ts (BENCH_PROTO_SPLIT=1: encode and
// decode of each run apart; BENCH_PROTO_ROUNDS: 20,000)
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type protobuf from 'protobufjs';
import { LOADER_OPTIONS, protoRoot } from '@switchboard/proto';
import { messageCodec } from '../../packages/proto/src/codec.ts';

const ROUNDS = Number(process.env.BENCH_PROTO_ROUNDS ?? 20_000);

const apps = protoRoot('switchboard/applications/v1/applications.proto');
const hooks = protoRoot('switchboard/webhooks/v1/webhooks.proto');
const batch = protoRoot('switchboard/rpc/v1/batch.proto');

const iso = '2026-11-28T10:15:30.123Z';
const application = (i: number) => ({
  id: `4f6b2c1e8a9d4b7c9e2f${String(i).padStart(12, '0')}`,
  accountId: '1042',
  name: `Support line ${i}`,
  voiceUrl: `https://hooks.example.com/voice/${i}`,
  messagingUrl: `https://hooks.example.com/sms/${i}`,
  environmentId: '2',
  apiType: 'scripting',
  createdAt: iso,
  updatedAt: iso,
});
const subscription = (i: number) => ({
  id: `sub_${String(i).padStart(24, '0')}`,
  accountId: '1042',
  applicationId: '',
  name: `billing ${i}`,
  event: 'cdrCreated',
  resource: 'all',
  targetUrl: `https://hooks.example.com/cdr/${i}`,
  enabled: true,
  createdAt: iso,
  updatedAt: iso,
  consecutiveFailures: 0,
  headers: { 'X-Team': 'billing' },
});
const delivery = (i: number) => ({
  id: `dlv_${String(i).padStart(24, '0')}`,
  messageId: `msg_${String(i).padStart(24, '0')}`,
  kind: 'notification',
  subscriptionId: 'sub_000000000000000000000001',
  applicationId: '',
  accountId: '1042',
  event: 'cdrCreated',
  targetUrl: 'https://hooks.example.com/cdr',
  attempt: 1,
  statusCode: 200,
  durationMs: 35,
  outcome: 'succeeded',
  createdAt: iso,
  deliveryKind: 'DELIVERY_KIND_NOTIFICATION',
  deliveryOutcome: 'DELIVERY_OUTCOME_SUCCEEDED',
  trigger: 'event',
  responseContentType: 'application/json',
  responseExcerpt: '{"received":true}',
  responseTruncated: false,
});

const getApp = apps.lookupType('switchboard.applications.v1.GetApplicationResponse');
const getReq = apps.lookupType('switchboard.applications.v1.GetApplicationRequest');
const metadata = {
  'x-request-id': Buffer.from('req_2f9c1b7a8e4d'),
  traceparent: Buffer.from('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'),
};
const CASES: { name: string; type: protobuf.Type; value: Record<string, unknown> }[] = [
  { name: 'GetApplicationRequest', type: getReq, value: { accountId: '1042', id: application(1).id } },
  { name: 'GetApplicationResponse', type: getApp, value: { application: application(1) } },
  {
    name: 'ListApplicationsResponse (20)',
    type: apps.lookupType('switchboard.applications.v1.ListApplicationsResponse'),
    value: { applications: Array.from({ length: 20 }, (_, i) => application(i)), nextCursor: 'eyJpZCI6IjQifQ' },
  },
  {
    name: 'ListSubscriptionsResponse (20)',
    type: hooks.lookupType('switchboard.webhooks.v1.ListSubscriptionsResponse'),
    value: { subscriptions: Array.from({ length: 20 }, (_, i) => subscription(i)), nextCursor: '' },
  },
  {
    name: 'ListDeliveriesResponse (20)',
    type: hooks.lookupType('switchboard.webhooks.v1.ListDeliveriesResponse'),
    value: { deliveries: Array.from({ length: 20 }, (_, i) => delivery(i)), nextCursor: 'eyJzZXEiOjQwfQ' },
  },
  {
    name: 'BatchRequest (8 GetApplication)',
    type: batch.lookupType('switchboard.rpc.v1.BatchRequest'),
    value: {
      calls: Array.from({ length: 8 }, (_, i) => ({
        method: '/switchboard.applications.v1.ApplicationsService/GetApplication',
        request: Buffer.from(getReq.encode({ accountId: 1042, id: application(i).id }).finish()),
        metadata,
      })),
    },
  },
  {
    name: 'BatchResponse (8 applications)',
    type: batch.lookupType('switchboard.rpc.v1.BatchResponse'),
    value: {
      results: Array.from({ length: 8 }, (_, i) => ({
        code: 0,
        details: '',
        response: Buffer.from(getApp.encode(getApp.fromObject({ application: application(i) })).finish()),
        metadata: {},
      })),
    },
  },
];

interface Codec {
  encode(v: Record<string, unknown>): Uint8Array;
  decode(b: Uint8Array): unknown;
}
const codecs: Record<string, (t: protobuf.Type) => Codec> = {
  static: (t) => {
    const c = messageCodec(t)!;
    return { encode: (v) => c.encode(v), decode: (b) => c.decode(b as Buffer) };
  },
  loader: (t) => ({
    encode: (v) => t.encode(t.fromObject(v)).finish(),
    decode: (b) => t.toObject(t.decode(b), LOADER_OPTIONS),
  }),
  pbjs: (t) => {
    // Its encoder takes its own shape (enums as numbers, say): made once, outside the measure.
    const native = new WeakMap<object, protobuf.Message>();
    const of = (v: Record<string, unknown>) => native.get(v) ?? native.set(v, t.fromObject(v)).get(v)!;
    return {
      encode: (v) => t.encode(of(v)).finish(),
      decode: (b) => t.toObject(t.decode(b), LOADER_OPTIONS),
    };
  },
};

function measure(codec: Codec, value: Record<string, unknown>): { encode: number; decode: number } {
  const bytes = codec.encode(value);
  for (let i = 0; i < 2_000; i++) codec.decode(codec.encode(value)); // warm-up
  let t = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) codec.encode(value);
  let used = process.cpuUsage(t);
  const encode = (used.user + used.system) / ROUNDS;
  t = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) codec.decode(bytes);
  used = process.cpuUsage(t);
  return { encode, decode: (used.user + used.system) / ROUNDS };
}

console.log(
  `Node ${process.version}, ${ROUNDS} rounds each; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('| message | static encode + decode (us) | pbjs (us) | loader (us) | pbjs / static | loader / static |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const c of CASES) {
  const made = Object.fromEntries(Object.entries(codecs).map(([name, make]) => [name, make(c.type)]));
  // The same object back from each codec's bytes, whoever decodes them.
  const expected = made.loader!.decode(made.loader!.encode(c.value));
  for (const [name, codec] of Object.entries(made))
    for (const other of Object.values(made))
      if (!isDeepStrictEqual(other.decode(codec.encode(c.value)), expected))
        throw new Error(`${c.name}: ${name}'s bytes decode differently`);
  const best: Record<string, number> = {};
  for (let run = 0; run < 3; run++)
    for (const [name, codec] of Object.entries(made)) {
      const m = measure(codec, c.value);
      best[name] = Math.min(best[name] ?? Infinity, m.encode + m.decode);
      if (process.env.BENCH_PROTO_SPLIT) console.log(c.name, name, m.encode.toFixed(2), m.decode.toFixed(2));
    }
  console.log(
    `| ${c.name} | ${best.static!.toFixed(2)} | ${best.pbjs!.toFixed(2)} | ${best.loader!.toFixed(2)} | ${(best.pbjs! / best.static!).toFixed(2)} | ${(best.loader! / best.static!).toFixed(2)} |`,
  );
}
