// The first-load budget, against the built assets (console/dist): the scripts index.html loads,
// and those they preload, gzipped, at most 150 KB.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const BUDGET_BYTES = 150 * 1024;

/** The script files index.html loads at once: its module scripts and module preloads. */
function firstLoadScripts(): string[] {
  const html = readFileSync(`${DIST}index.html`, 'utf8');
  const srcs = [
    ...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!);
  return [...new Set(srcs)];
}

describe('the first load', () => {
  it('when index.html is loaded, then its scripts weigh at most 150 KB gzipped, and none is inline', () => {
    const html = readFileSync(`${DIST}index.html`, 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const scripts = firstLoadScripts();
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const src of scripts) {
      expect(src).toMatch(/^\/console\/assets\/[\w.-]+-[\w-]{8}\.js$/);
      total += gzipSync(readFileSync(`${DIST}${src.slice('/console/'.length)}`), { level: 9 }).length;
    }
    console.log(`first-load JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${scripts.length} files)`);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
