// The console (console/, a single-page app) under /console/: the built files with long-lived
// caching for the hashed assets, index.html revalidated on every load and answered for every deep
// link, all under a Content-Security-Policy that allows nothing but the gateway's own origin. And
// `/`, which sends a browser to the console.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';
import { AppError } from '@switchboard/platform';

/** The repository's console/dist, from services/gateway/src (sources) or services/gateway/dist (compiled). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** No inline script or style, no other origin: scripts, styles, fetches and frames from the gateway alone. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when the client would rather have HTML than JSON (a browser's navigation). */
export function prefersHtml(req: Request): boolean {
  const html = req.accepts(['application/json', 'text/html']);
  return html === 'text/html' && /text\/html/.test(req.headers.accept ?? '');
}

export function consoleRoutes(app: Router, dir: string = DEFAULT_CONSOLE_DIR): void {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  // Read once the first time it is asked for, then kept: a new build comes with a restart.
  let index: Buffer | undefined;
  const sendIndex = (res: Response) => {
    if (!index) {
      if (!existsSync(indexFile))
        throw new AppError('not_found', 'the console is not built: run `npm run build` (or set CONSOLE_DIR)');
      index = readFileSync(indexFile);
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html').send(index);
  };

  app.get('/', (req, res, next) => {
    if (prefersHtml(req)) res.redirect(302, '/console/');
    else next();
  });
  app.get('/console', (req, res, next) => (req.path === '/console' ? res.redirect(301, '/console/') : next()));
  app.use('/console', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  app.use(
    '/console/assets',
    express.static(join(root, 'assets'), {
      index: false,
      etag: false,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
  );
  // Other files of the build (icons) are revalidated; index.html is never served from here.
  app.use('/console', express.static(root, { index: false, etag: true, cacheControl: false }));
  // Every other path under /console/ is a page of the app: index.html, which routes it.
  app.get(/^\/console\/.*/, (req, res) => {
    if (req.path.startsWith('/console/assets/')) throw new AppError('not_found', 'no such resource');
    sendIndex(res);
  });
}
