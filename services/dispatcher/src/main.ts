import { runMain } from '@switchboard/platform';
import { createApp, loadConfig } from './app';

await runMain('dispatcher', async () => {
  const app = createApp(loadConfig());
  await app.start();
  return { logger: app.logger, stop: () => app.stop() };
});
