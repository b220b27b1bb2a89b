import { runMain } from '@switchboard/platform';
import { createApp } from './app';
import { loadConfig } from './config';

await runMain('webhooks', async () => {
  const app = await createApp(loadConfig());
  await app.start();
  return { logger: app.logger, stop: () => app.stop() };
});
