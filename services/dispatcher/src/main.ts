import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'dispatcher',
  async () => {
    // Imported once tracing runs, so its instrumentations see the libraries load.
    const { createApp, loadConfig } = await import('./app.ts');
    const app = createApp(loadConfig());
    await app.start();
    return { logger: app.logger, stop: () => app.stop() };
    // Its POSTs go out through undici; it queries no database.
  },
  { instrument: ['undici'] },
);
