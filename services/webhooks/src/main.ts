import { runTracedMain } from '@switchboard/observability/tracing';

await runTracedMain(
  'webhooks',
  // Imported once tracing runs, so its instrumentations see the libraries load.
  async () => (await import('./app.ts')).createApp((await import('./config.ts')).loadConfig()),
  { instrument: ['pg'] },
);
