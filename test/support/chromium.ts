/**
 * Real Chromium for the browser tests: Debian's `/usr/bin/chromium` driven by playwright-core
 * (which downloads no browser of its own), headless, with a fresh profile per launch and every
 * background service that would reach the network turned off.
 *
 * Where Chromium is missing: in CI (`CI` set) the tests fail, naming the package to install
 * (`.ci/run` installs it); on a developer's machine without it they are skipped with a message.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where the tests keep their screenshots (git-ignored). */
export const ARTIFACT_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts', 'browser');

/**
 * True when the browser tests should be skipped: no Chromium and not in CI. In CI a missing
 * Chromium is not a reason to skip, so the tests run and fail at launch with the message below.
 */
export function skipWithoutChromium(): boolean {
  if (existsSync(CHROMIUM_PATH)) return false;
  if (process.env.CI) return false;
  process.stderr.write(`browser tests skipped: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)\n`);
  return true;
}

export type Browser = { context: BrowserContext; close(): Promise<void> };

/**
 * Launches headless Chromium on a fresh user-data directory; `close()` removes it.
 *
 * @example
 *   const browser = await launchChromium(); const page = await browser.context.newPage();
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: the browser tests need it (apt-get install -y chromium; .ci/run does this)`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'gcrs-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page as `test-artifacts/browser/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  const path = join(ARTIFACT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
