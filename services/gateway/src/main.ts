import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'gateway',
  // Imported once tracing runs, so its instrumentations see the libraries load.
  async () => (await import('./app.ts')).createApp((await import('./config.ts')).loadConfig()),
  // Every gRPC call the gateway makes for a request is given the request's trace (callOptions), so
  // it needs no context manager, and its promises pay nothing for carrying one. It queries no
  // database and makes no HTTP requests: no instrumentation.
  { contextManager: false, instrument: [] },
);
