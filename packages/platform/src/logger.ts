import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, one line per event, with the service name on every line. */
export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: ['password', '*.password', 'authorization', '*.authorization', 'secret', '*.secret'], censor: '[redacted]' },
  });
}
