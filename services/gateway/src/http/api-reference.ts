// The API reference page, `/docs`: Scalar's API reference (@scalar/api-reference, its standalone
// browser bundle) rendering `/openapi.json`, served by the gateway itself under a CSP that lets the
// page load nothing but the gateway's own scripts and document (docs/decisions/0025-api-reference-scalar.md).
// The bundle is read from the package in node_modules (the gateway's image holds that one file),
// compressed once on first use and sent under a name of its content's hash, cached for a year.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response, Router } from 'express';
import { AppError } from '@switchboard/errors';

/** The standalone bundle, from services/gateway/src/http (sources) or services/gateway/dist/http (compiled). */
export const DEFAULT_REFERENCE_BUNDLE = fileURLToPath(
  new URL('../../../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url),
);

/**
 * Scripts and the document from the gateway alone; no eval (the bundle's schema library probes for
 * it once and falls back to interpreting); inline styles, which the renderer sets at run time; no
 * fonts, images or frames from anywhere else.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The renderer's settings: the system's fonts (not Scalar's font CDN), no "try it" client (it would
 * send the reader's credentials from the page; the examples are for the reader to run), no
 * telemetry, no AI agent, no developer tools; every tag open, so the whole reference can be read
 * down (and searched with the browser's find) without a click.
 */
const INIT_JS = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: '/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  defaultOpenAllTags: true,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
})});\n`;

const page = (bundle: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<noscript>The API reference needs JavaScript; the API description itself is <a href="/openapi.json">/openapi.json</a>.</noscript>
<script src="/docs/${bundle}"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

interface Bundle {
  name: string;
  raw: Buffer;
  /** gzip (level 9) and Brotli (quality 9), made once in the background on first use. */
  compressed: Promise<{ gzip: Buffer; br: Buffer }>;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function headers(res: Response): void {
  res.setHeader('Content-Security-Policy', REFERENCE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
}

export function apiReferenceRoutes(app: Router, bundlePath: string = DEFAULT_REFERENCE_BUNDLE): void {
  let bundle: Bundle | undefined;
  const load = (): Bundle => {
    if (bundle) return bundle;
    if (!existsSync(bundlePath))
      throw new AppError(
        'not_found',
        'the API reference is not installed (npm ci); the API description is /openapi.json',
      );
    const raw = readFileSync(bundlePath);
    const hash = createHash('sha256').update(raw).digest('base64url').slice(0, 16);
    const compressed = Promise.all([
      promisify(gzip)(raw, { level: 9 }),
      promisify(brotliCompress)(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    ]).then(([g, b]) => ({ gzip: g, br: b }));
    compressed.catch(() => undefined);
    bundle = { name: `scalar.${hash}.js`, raw, compressed };
    return bundle;
  };

  app.get('/docs', (_req: Request, res: Response) => {
    const b = load();
    headers(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html').send(page(b.name));
  });
  app.get('/docs/init.js', (_req: Request, res: Response) => {
    headers(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript').send(INIT_JS);
  });
  app.get('/docs/:file', async (req: Request, res: Response) => {
    const b = load();
    if (req.params.file !== b.name) throw new AppError('not_found', 'no such resource');
    headers(res);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Vary', 'Accept-Encoding');
    const encoding = req.acceptsEncodings('br', 'gzip');
    if (encoding === 'br' || encoding === 'gzip') {
      const c = await b.compressed;
      res.setHeader('Content-Encoding', encoding);
      res.type('text/javascript').send(c[encoding]);
    } else res.type('text/javascript').send(b.raw);
  });
}
