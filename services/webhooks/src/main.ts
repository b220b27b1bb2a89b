import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'webhooks',
  async () => {
    // Imported once tracing runs, so its instrumentations see the libraries load.
    const { createApp } = await import('./app.ts');
    const { loadConfig } = await import('./config.ts');
    const app = await createApp(loadConfig());
    await app.start();
    return { logger: app.logger, stop: () => app.stop() };
  },
  { instrument: ['pg'] },
);
