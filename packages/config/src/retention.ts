// How long a "day" of retention lasts. Every retention window is stated in days (or hours) and
// partitions span a day; RETENTION_DAY_MS shortens that day for tests and the soak, so that days
// of retention pass in minutes. Production leaves it at a day.
import { z } from 'zod';

export const DAY_MS = 86_400_000;

/** The config field of every service with retention passes (spread into its zod schema). */
export const retentionDayField = {
  RETENTION_DAY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(DAY_MS)
    .refine((v) => DAY_MS % v === 0, 'must divide a day (86,400,000) evenly')
    .default(DAY_MS)
    .describe(
      'A test setting: how long one day of every retention window lasts, in ms (default a day). Partitions span one such day and every retention stated in days or hours is counted in them; the soak sets seconds so that days of traffic and retention pass in minutes. Dividing a day evenly keeps spans aligned to UTC days.',
    ),
};

/**
 * The zod field PRUNE_INTERVAL_MS of a service with a retention pass (1 s to a day, default an hour),
 * to spread into its config schema; `prunes` says what the pass prunes.
 */
export const pruneIntervalField = (prunes: string) => ({
  PRUNE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(3_600_000)
    .describe(
      `How often the retention pass runs (${prunes} pruned), in ms (default 1 h); it also runs at start, and one replica at a time does it. Tests set seconds.`,
    ),
});

/** The instant `days` retention days before `now` (fractions allowed: an hour is 1/24). */
export function daysBefore(days: number, dayMs: number, now = Date.now()): Date {
  return new Date(now - days * dayMs);
}
