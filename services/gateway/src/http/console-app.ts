// The console (console/, a single-page app) under /console/: the built files with long-lived
// caching for the hashed assets, index.html revalidated on every load and answered for every deep
// link, all under a Content-Security-Policy that allows nothing but the gateway's own origin. And
// `/`, which sends a browser to the console.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';
import { AppError } from '@switchboard/errors';

/** The repository's console/dist, from services/gateway/src (sources) or services/gateway/dist (compiled). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

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

interface Compressed {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

function compress(raw: Buffer): Compressed {
  return {
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** True when the client would rather have HTML than JSON (a browser's navigation). */
export function prefersHtml(req: Request): boolean {
  const html = req.accepts(['application/json', 'text/html']);
  return html === 'text/html' && /text\/html/.test(req.headers.accept ?? '');
}

export function consoleRoutes(app: Router, dir: string = DEFAULT_CONSOLE_DIR): void {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  // Kept in memory, read again when the file changes (a new build, `vite build --watch`).
  let index: { body: Buffer; mtimeMs: number } | undefined;
  const sendIndex = (res: Response) => {
    const mtimeMs = existsSync(indexFile) ? statSync(indexFile).mtimeMs : undefined;
    if (mtimeMs === undefined)
      throw new AppError('not_found', 'the console is not built: run `npm run build` (or set CONSOLE_DIR)');
    if (index?.mtimeMs !== mtimeMs) index = { body: readFileSync(indexFile), mtimeMs };
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html').send(index.body);
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
  // Hashed assets, compressed once (Brotli or gzip, as the browser accepts) and kept in memory.
  const assets = new Map<string, Compressed | null>();
  app.get('/console/assets/:file', (req, res, next) => {
    const file = join(root, 'assets', String(req.params.file));
    if (!file.startsWith(join(root, 'assets') + sep)) return next();
    let entry = assets.get(file);
    if (entry === undefined) {
      entry = existsSync(file) ? compress(readFileSync(file)) : null;
      // Only files that exist are kept: a missing name costs a stat each time, not memory.
      if (entry) assets.set(file, entry);
    }
    if (!entry) return next();
    const encoding = req.acceptsEncodings('br', 'gzip');
    const body = encoding === 'br' ? entry.br : encoding === 'gzip' ? entry.gzip : entry.raw;
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding);
    res.type(extname(file)).send(body);
  });
  // Other files of the build (icons) are revalidated; index.html is never served from here.
  app.use('/console', express.static(root, { index: false, etag: true, cacheControl: false }));
  // Every other path under /console/ is a page of the app: index.html, which routes it.
  app.get(/^\/console\/.*/, (req, res) => {
    if (req.path.startsWith('/console/assets/')) throw new AppError('not_found', 'no such resource');
    sendIndex(res);
  });
}
