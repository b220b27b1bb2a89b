// Every decision record says when it was made, whether it still holds, why it was needed, and on
// which Node version and how quiet a machine its figures were measured.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = new URL('../../docs/decisions/', import.meta.url).pathname;
const records = readdirSync(DIR).filter((name) => /^\d{4}-.*\.md$/.test(name));

describe('docs/decisions', () => {
  it('has records', () => expect(records.length).toBeGreaterThan(0));

  for (const name of records) {
    it(`${name} has a status, a date, the conditions of its figures and a context`, () => {
      const text = readFileSync(join(DIR, name), 'utf8');
      const head = text.split('\n## ')[0]!;
      expect(head).toMatch(/^- \*\*Status:\*\* \S/m);
      expect(head).toMatch(/^- \*\*Date:\*\* \d{4}-\d{2}-\d{2}/m);
      // Node version and machine load, or that there are no figures, or that they were not recorded.
      expect(head).toMatch(/^- \*\*Figures:\*\* .*(Node|no figures)/m);
      expect(head).toMatch(/^- \*\*Figures:\*\* .*(load|quiet|no figures)/m);
      expect(text).toMatch(/^## Context$/m);
      expect(text).not.toMatch(/\bissue \d+/i);
    });
  }

  it('are all in the index', () => {
    const index = readFileSync(join(DIR, 'README.md'), 'utf8');
    for (const name of records) expect(index).toContain(`(${name})`);
  });
});
