// Headless Chromium as the browser tests and the console's benchmark launch it (playwright-core):
// the system's build (CHROMIUM_PATH, /usr/bin/chromium by default), without sandbox or GPU, and
// with none of its own background traffic.

/** The launch options of Chromium (chromium.launch, chromium.launchServer). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
