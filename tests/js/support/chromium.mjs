// Headless Chromium for the browser tests: Debian's package, driven by
// playwright-core, never a downloaded browser. Outside CI the tests skip
// with a message when it is absent; in CI they must run (scripts/setup.sh
// installs it there), so a missing browser fails.
import { existsSync } from "node:fs";

/** Where the browser is (WABASH_CHROMIUM overrides). */
export const CHROMIUM = process.env.WABASH_CHROMIUM ?? "/usr/bin/chromium";

/** Flags for a quiet, offline, headless run as root. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Why the browser tests skip here (a string), or false when they run. */
export function chromiumSkip() {
  if (existsSync(CHROMIUM)) {
    return false;
  }
  if (process.env.CI) {
    throw new Error(`${CHROMIUM} is missing; scripts/setup.sh installs Chromium in CI`);
  }
  return `Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set WABASH_CHROMIUM); browser tests skipped`;
}

/** Launches headless Chromium. */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}
