// Keyboard-only steps for the console's browser tests.
import type { Locator, Page } from 'playwright-core';

/** Presses Tab until `target` has the focus (at most `max` times); throws if it never does. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    // Run in the page; the tests are type-checked without the DOM's globals.
    const focused = await target.evaluate(
      (el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
    );
    if (focused) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}
