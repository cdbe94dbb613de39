import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * How long a browser suite's test may take: a flow through the portal takes 5–10 s alone and half
 * as long again beside CI's other work, so Jest's 30 s would leave little room on a slower machine.
 */
export const BROWSER_TEST_TIMEOUT_MS = 60_000;

/** Debian's Chromium (`apt-get install chromium`); `.ci/run` installs it when missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for the browser suites, or null when it is not installed: outside CI the
 * suite is skipped with a message; in CI (`CI=true`) a missing browser is an error.
 */
export async function launchChromium(suite: string, extraArgs: string[] = []): Promise<Browser | null> {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
    if (process.env.CI === 'true') throw new Error(`${suite}: ${reason}; CI must run this suite`);
    console.error(`${suite}: SKIPPED, ${reason}`);
    return null;
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // The machine has no network beyond loopback: Chromium's background services would only fail.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      // The portal speaks the browser's language: English unless a page asks for another (`locale`).
      '--lang=en-US',
      ...extraArgs,
    ],
  });
}
