import { runTracedMain } from '@switchboard/platform/tracing';

await runTracedMain('webhooks', async () => {
  // Imported once tracing runs, so its instrumentations see the libraries load.
  const { createApp } = await import('./app.ts');
  const { loadConfig } = await import('./config.ts');
  const app = await createApp(loadConfig());
  await app.start();
  return { logger: app.logger, stop: () => app.stop() };
  // Its work in a trace ends when a handler answers, so the context manager need only be on while
  // some handler runs in a trace: most calls, outside any, then pay nothing for it (Node 20 and 22).
}, { contextManager: 'on-demand', instrument: ['pg'] });
