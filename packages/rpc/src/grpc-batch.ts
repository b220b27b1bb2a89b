// Unary gRPC calls carried several at a time (proto/switchboard/rpc/v1/batch.proto). The client side
// here queues the calls its clients make and sends what is ready as one BatchService.Call; the
// server side (GrpcServer.addBatch) runs each call through the handler it would have reached alone.
import * as grpc from '@grpc/grpc-js';
import type { Histogram } from 'prom-client';

/** A generated client method: callable, with its path and codecs attached by grpc-js. */
export interface UnaryMethod {
  (
    this: grpc.Client,
    request: unknown,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: UnaryCallback,
  ): grpc.ClientUnaryCall;
  path: string;
  requestSerialize(value: unknown): Buffer;
  responseDeserialize(bytes: Buffer): unknown;
}

export type UnaryCallback = (err: grpc.ServiceError | null, response?: unknown) => void;

interface BatchedCallMessage {
  method: string;
  request: Buffer;
  metadata: Record<string, Buffer>;
}

interface BatchedResultMessage {
  code: number;
  details: string;
  response: Buffer;
  metadata: Record<string, Buffer>;
}

/** The generated BatchService client's one method. */
interface BatchServiceClient extends grpc.Client {
  Call(
    request: { calls: BatchedCallMessage[] },
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (err: grpc.ServiceError | null, response?: { results: BatchedResultMessage[] }) => void,
  ): grpc.ClientUnaryCall;
}

interface Pending {
  owner: grpc.Client;
  method: UnaryMethod;
  request: unknown;
  metadata: grpc.Metadata;
  deadline: number;
  callback: UnaryCallback;
  /** The request encoded, once a batch was made up with it and it did not fit: the next batch takes it as is. */
  encoded?: Buffer;
}

export interface CallBatcherOptions {
  /** Most calls in one batch (default 64). */
  maxCalls?: number;
  /**
   * Most calls and batches out at once (default 8). Calls made while that many are out wait and
   * leave together when one comes back: the busier the client, the larger its batches.
   */
  maxInFlight?: number;
  /** Calls per batch sent, for a histogram (service label). */
  sizes?: { histogram: Histogram<'service'>; service: string };
}

/**
 * Most request bytes in one batch: well under the 4 MiB a server accepts in one message. Answers
 * have no such limit: a batch's client accepts an answer of any size (the calls alone would have
 * received the same bytes), so lists in one batch cannot fail each other.
 */
const MAX_BATCH_REQUEST_BYTES = 1024 * 1024;

/** A server that answers UNIMPLEMENTED to BatchService (an older release) gets single calls for this long. */
const UNSUPPORTED_RETRY_MS = 60_000;

/**
 * Runs `start` (code that sets up gRPC calls) with stack capture off. grpc-js captures a caller
 * stack (new Error()) on every call for the rare failure; failures become AppErrors in
 * promiseClient and never use it, and the capture costs ~12% of a client's CPU per call. Calls are
 * set up synchronously, so the limit is restored before anything else runs.
 */
export function withoutStackCapture(start: () => void): void {
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    start();
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/** Metadata as the batch messages carry it: every value as bytes. */
export function metadataToMap(metadata: grpc.Metadata): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const map = metadata.getMap();
  for (const key of Object.keys(map)) {
    const value = map[key]!;
    out[key] = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  }
  return out;
}

/** The reverse of metadataToMap: keys ending in -bin keep bytes, the others become strings. Throws on a key gRPC refuses. */
export function metadataFromMap(map: Record<string, Buffer>): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const key of Object.keys(map)) {
    const value = map[key]!;
    metadata.set(key, key.endsWith('-bin') ? value : value.toString('utf8'));
  }
  return metadata;
}

/**
 * Sends the unary calls of every client on one address, alone or in batches. A call is queued and
 * leaves at the end of the current turn of the event loop with whatever else was queued by then
 * (one call goes as itself, several as one batch), unless `maxInFlight` calls or batches are
 * already out: then it waits for one of them to come back. An idle client therefore sends each call
 * alone and at once; a busy one sends fewer, larger messages.
 */
export class CallBatcher {
  private readonly maxCalls: number;
  private readonly maxInFlight: number;
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private unsupportedUntil = 0;

  constructor(
    private readonly client: grpc.Client,
    private readonly opts: CallBatcherOptions = {},
  ) {
    this.maxCalls = opts.maxCalls ?? 64;
    this.maxInFlight = opts.maxInFlight ?? 8;
  }

  /** Makes `method` of `owner` (a client on this batcher's address) with `request`; `callback` gets its answer. */
  send(
    owner: grpc.Client,
    method: UnaryMethod,
    request: unknown,
    metadata: grpc.Metadata,
    deadline: number,
    callback: UnaryCallback,
  ): void {
    this.queue.push({ owner, method, request, metadata, deadline, callback });
    this.schedule();
  }

  close(): void {
    this.client.close();
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    withoutStackCapture(this.sendQueued);
  };

  private readonly sendQueued = (): void => {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      // A call alone goes as itself, and grpc-js encodes it: nothing to encode here.
      if (this.queue.length === 1 || Date.now() < this.unsupportedUntil) {
        this.inFlight++;
        this.single(this.queue.shift()!);
        continue;
      }
      // The next batch: up to maxCalls calls whose requests add up to at most MAX_BATCH_REQUEST_BYTES
      // (a larger request goes alone), so a batch never runs into the server's message size limit.
      const calls: Pending[] = [];
      const requests: Buffer[] = [];
      let bytes = 0;
      while (this.queue.length > 0 && calls.length < this.maxCalls) {
        const next = this.queue[0]!;
        let request: Buffer;
        try {
          request = next.encoded ?? next.method.requestSerialize(next.request);
        } catch (err) {
          // A request its method cannot encode fails alone, as a call made alone would.
          this.queue.shift();
          next.callback(callError(grpc.status.INTERNAL, `request could not be encoded: ${(err as Error).message}`, {}));
          continue;
        }
        if (calls.length > 0 && bytes + request.length > MAX_BATCH_REQUEST_BYTES) {
          next.encoded = request;
          break;
        }
        this.queue.shift();
        calls.push(next);
        requests.push(request);
        bytes += request.length;
      }
      if (calls.length === 0) continue;
      this.inFlight++;
      if (calls.length === 1) this.single(calls[0]!);
      else this.batch(calls, requests);
    }
  };

  private done(): void {
    this.inFlight--;
    this.schedule();
  }

  private single(call: Pending): void {
    try {
      call.method.call(call.owner, call.request, call.metadata, { deadline: call.deadline }, (err, response) => {
        this.done();
        call.callback(err, response);
      });
    } catch (err) {
      // grpc-js throws at once when the call cannot start (a request it cannot encode, a closed
      // client): the call fails, nothing else does.
      this.done();
      call.callback(callError(grpc.status.INTERNAL, `the call could not start: ${(err as Error).message}`, {}));
    }
  }

  private batch(calls: Pending[], requests: Buffer[]): void {
    this.opts.sizes?.histogram.observe({ service: this.opts.sizes.service }, calls.length);
    let deadline = 0;
    const messages: BatchedCallMessage[] = new Array(calls.length);
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      // The batch waits as long as its most patient call would have; every call's deadline is at most the client's default.
      if (call.deadline > deadline) deadline = call.deadline;
      messages[i] = { method: call.method.path, request: requests[i]!, metadata: metadataToMap(call.metadata) };
    }
    try {
      (this.client as BatchServiceClient).Call(
        { calls: messages },
        new grpc.Metadata(),
        { deadline },
        (err, response) => {
          if (err && err.code === grpc.status.UNIMPLEMENTED) {
            // An older server: these calls never ran. Send them alone, and the next ones too for a while.
            this.unsupportedUntil = Date.now() + UNSUPPORTED_RETRY_MS;
            this.inFlight += calls.length - 1;
            for (const call of calls) this.single(call);
            return;
          }
          this.done();
          const results = response?.results ?? [];
          for (let i = 0; i < calls.length; i++) {
            const call = calls[i]!;
            const result = results[i];
            if (err) call.callback(err);
            else if (!result)
              call.callback(callError(grpc.status.INTERNAL, 'the batch came back without this call', {}));
            else if (result.code !== grpc.status.OK)
              call.callback(callError(result.code, result.details, result.metadata));
            else {
              let answer: unknown;
              try {
                answer = call.method.responseDeserialize(result.response);
              } catch (decodeErr) {
                call.callback(
                  callError(
                    grpc.status.INTERNAL,
                    `the answer could not be decoded: ${(decodeErr as Error).message}`,
                    {},
                  ),
                );
                continue;
              }
              call.callback(null, answer);
            }
          }
        },
      );
    } catch (err) {
      // grpc-js throws at once when the batch cannot start (its client closed): its calls fail, as they would alone.
      this.done();
      for (const call of calls)
        call.callback(callError(grpc.status.UNAVAILABLE, `the call could not start: ${(err as Error).message}`, {}));
    }
  }
}

/** A failed call of a batch, shaped as grpc-js reports a failed unary call. */
function callError(code: number, details: string, metadata: Record<string, Buffer>): grpc.ServiceError {
  let md: grpc.Metadata;
  try {
    md = metadataFromMap(metadata);
  } catch {
    md = new grpc.Metadata();
  }
  return { name: 'Error', message: `${code} ${grpc.status[code] ?? ''}: ${details}`, code, details, metadata: md };
}
