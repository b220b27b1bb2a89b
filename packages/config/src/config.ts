// Configuration is one zod schema per process, parsed once from the environment at start.
import { z } from 'zod';
import { parseCidrList, type Cidr } from '@switchboard/security';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses `env` with `schema`; a bad value throws a ConfigError naming every offending variable. */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  // Empty strings mean "not set", so defaults apply.
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const ISO_DURATION =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/**
 * Parses one duration into milliseconds: "250ms", "5s", "30m", "2h", "5d", a bare number (ms), or
 * an ISO 8601 duration in weeks, days, hours, minutes and seconds ("P5D", "PT2S", "P1DT12H").
 */
export function parseDuration(text: string): number {
  const iso = ISO_DURATION.exec(text.trim());
  if (iso && /\d/.test(text) && !/T$/i.test(text.trim())) {
    const [, w, d, h, m, s] = iso.map((x) => Number(x ?? 0));
    return Math.round(((w! * 7 + d!) * 24 * 3600 + h! * 3600 + m! * 60 + s!) * 1000);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!m)
    throw new Error(
      `not a duration: ${JSON.stringify(text)} (use e.g. 500ms, 5s, 30m, 2h, 5d or ISO 8601 such as PT30S, P5D)`,
    );
  const value = Number(m[1]) * UNIT_MS[(m[2] ?? 'ms').toLowerCase()]!;
  if (!Number.isFinite(value) || value < 0) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  return Math.round(value);
}

/** A duration variable (parseDuration), in milliseconds. */
export const duration = (def: string) =>
  z
    .string()
    .default(def)
    .transform((v, ctx) => {
      try {
        return parseDuration(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

export const port = (def: number) => z.coerce.number().int().min(0).max(65535).default(def);
export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
export const urlWithProtocol = (protocols: string[], def: string) =>
  z
    .string()
    .default(def)
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL with protocol ${protocols.join(' or ')}`,
    );
/**
 * NATS_URL: one server URL or a comma-separated list of them (every member of a cluster, so the
 * first connection does not depend on one server being up). Each must have protocol nats: or tls:
 * and a host; the output is the list joined by commas without blanks, as connectNats takes it.
 */
export const natsServers = (def: string) =>
  z
    .string()
    .default(def)
    .transform((v, ctx) => {
      const urls = v.split(',').map((u) => u.trim());
      const bad = urls.filter((u) => {
        try {
          const parsed = new URL(u);
          return !['nats:', 'tls:'].includes(parsed.protocol) || !parsed.hostname;
        } catch {
          return true;
        }
      });
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of URLs with protocol nats: or tls: (bad: ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
        });
        return z.NEVER;
      }
      return urls.join(',');
    });
/** host:port of a gRPC server. */
export const grpcAddress = (def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(v), 'must be host:port');
export const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list of CIDRs (e.g. DELIVERY_ALLOWED_CIDRS), parsed. */
export const cidrList = z
  .string()
  .default('')
  .transform((v, ctx): Cidr[] => {
    try {
      return parseCidrList(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of CIDRs (${(err as Error).message})` });
      return z.NEVER;
    }
  });

/** A whole-number variable from `min` to `max`, `def` when unset. */
export const intField = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

/**
 * AUTH_MAX_FAILURES of the gateway and the applications service: the same bounds and default, each
 * service saying where it counts (`description`).
 */
export const authMaxFailuresField = (description: string) => ({
  AUTH_MAX_FAILURES: intField(5, 1, 1000).describe(description),
});

/** AUTH_LOCKOUT_MS, read by the gateway and the applications service alike: spread into their schemas. */
export const authLockoutField = {
  AUTH_LOCKOUT_MS: intField(30_000, 0, 900_000).describe(
    'First lockout, in ms; doubles with every further failure, up to 15 minutes.',
  ),
};
