// The environment of tracing: the standard OTEL_* variables, validated.
import { z } from 'zod';
import { parseConfig } from '@switchboard/config';

/** The samplers of OTEL_TRACES_SAMPLER that need no remote configuration. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * The libraries whose calls the instrumentations turn into spans: Postgres queries (`pg`) and
 * outgoing HTTP requests (`undici`), by OpenTelemetry's names for their instrumentations.
 */
export const INSTRUMENTED = ['pg', 'undici'] as const;
export type Instrumented = (typeof INSTRUMENTED)[number];

/**
 * Fraction of new traces recorded when OTEL_TRACES_SAMPLER_ARG is not set (OpenTelemetry's own
 * default is 1): one request in ten is enough to see where the time goes, and exports a tenth.
 */
export const DEFAULT_SAMPLED_RATIO = 0.1;

/** Environment of tracing (the standard OTEL_* names). */
export const tracingConfigSchema = z.object({
  /** Collector base URL; traces go to `${endpoint}/v1/traces`. Unset: tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .refine((v) => {
      if (v === undefined) return true;
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an http or https URL'),
  /** Overrides the service name the process reports. */
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
    .optional(),
  /**
   * Which traces are recorded (OpenTelemetry's names). The parentbased_* samplers follow the decision
   * of a trace started upstream (the sampled flag of its traceparent) and apply the rest to new traces.
   */
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).default('parentbased_traceidratio'),
  /** Fraction of new traces recorded (0..1) by the *traceidratio samplers. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(DEFAULT_SAMPLED_RATIO),
  /** OTLP/HTTP encoding of the exports: protobuf (the smaller and cheaper) or JSON. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
  /** The same for traces alone; overrides OTEL_EXPORTER_OTLP_PROTOCOL. */
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  /** Milliseconds between batch exports. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(60_000).default(1000),
  /**
   * Instrumentations not loaded (OpenTelemetry's variable: names without the
   * `@opentelemetry/instrumentation-` prefix, comma-separated): `pg` for no Postgres query spans,
   * `undici` for no spans of outgoing HTTP requests (the dispatcher's POSTs then carry no
   * traceparent either). Any other name is refused, so that a misspelt one does not go unnoticed.
   */
  OTEL_NODE_DISABLED_INSTRUMENTATIONS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    )
    .pipe(
      z.array(
        z.enum(INSTRUMENTED, {
          error: (issue) =>
            `unknown instrumentation ${JSON.stringify(issue.input)}: known are ${INSTRUMENTED.join(', ')}`,
        }),
      ),
    ),
});
export type TracingConfig = z.output<typeof tracingConfigSchema>;

export function loadTracingConfig(env: Record<string, string | undefined> = process.env): TracingConfig {
  return parseConfig(tracingConfigSchema, env);
}
