// The check every generated file gets: what is committed is what its command writes now.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect, it } from 'vitest';

/** A test that `file` holds what `render` gives, else fails naming the `command` that writes it. */
export function itIsWhatItsCommandWrites(file: string, command: string, render: () => string): void {
  it(`is what \`${command}\` writes`, () => {
    const name = relative(process.cwd(), file);
    expect(readFileSync(file, 'utf8'), `${name} is out of date: run \`${command}\``).toBe(render());
  });
}
