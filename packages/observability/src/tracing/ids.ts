// Trace and span ids.
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import { randomHex } from '@switchboard/security';

/**
 * The SDK's random ids, except that a trace id drawn by startTrace before the span exists is the
 * one the span then takes: the sampler decides on it first, and only a sampled trace gets a span.
 */
export class PresetIdGenerator implements IdGenerator {
  /** The trace id the next root span takes; cleared as soon as it is taken. */
  next: string | undefined;
  constructor(readonly random: IdGenerator) {}
  generateTraceId = (): string => {
    const id = this.next ?? this.random.generateTraceId();
    this.next = undefined;
    return id;
  };
  generateSpanId = (): string => this.random.generateSpanId();
}

/**
 * Random trace and span ids (lowercase hex, never all zeros) cut from the platform's pool of random
 * hex (random-hex.ts), where the SDK's generator makes four Math.random() calls and a hex
 * conversion per id. Every request draws a trace id and a span id, sampled or not.
 */
export class PooledIdGenerator implements IdGenerator {
  private take(chars: number): string {
    for (;;) {
      const id = randomHex(chars);
      if (!ALL_ZEROS.test(id)) return id;
    }
  }
  generateTraceId = (): string => this.take(32);
  generateSpanId = (): string => this.take(16);
}

const ALL_ZEROS = /^0+$/;
