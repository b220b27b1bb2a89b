import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'dispatcher',
  // Imported once tracing runs, so its instrumentations see the libraries load.
  async () => {
    const { createApp, loadConfig } = await import('./app.ts');
    return createApp(loadConfig());
  },
  // Its POSTs go out through undici; it queries no database.
  { instrument: ['undici'] },
);
