import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout (or `destination`, e.g. a buffer in a test), one line per event, with the service name on every line. */
export function createLogger(service: string, level: string = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ['password', '*.password', 'authorization', '*.authorization', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
