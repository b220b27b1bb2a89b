import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'gateway',
  async () => {
    // Imported once tracing runs, so its instrumentations see the libraries load.
    const { createApp } = await import('./app.ts');
    const { loadConfig } = await import('./config.ts');
    const app = createApp(loadConfig());
    await app.start();
    return { logger: app.logger, stop: () => app.stop() };
  },
  // Every gRPC call the gateway makes for a request is given the request's trace (callOptions), so
  // it needs no context manager, and its promises pay nothing for carrying one. It queries no
  // database and makes no HTTP requests: no instrumentation.
  { contextManager: false, instrument: [] },
);
