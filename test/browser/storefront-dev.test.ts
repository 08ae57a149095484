/**
 * The newcomer's path of README "See a gift in a browser": a real `npm run storefront:dev`,
 * the printed storefront URL opened in Chromium, a gift added and removed as the shopper
 * changes the cart, then Ctrl-C (SIGINT), which stops both servers and removes the data.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import type { Browser } from '../support/chromium.ts';
import { addFromCard, expectGiftVariants, openStorefront, stepLine } from '../support/shopper.ts';

const root = join(import.meta.dirname, '..', '..');

describe.skipIf(skipWithoutChromium())('npm run storefront:dev, in Chromium', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('prints a storefront where a gift comes and goes, and Ctrl-C stops everything', async () => {
    const dev = spawn('npm', ['run', 'storefront:dev'], {
      cwd: root,
      env: { ...process.env, STOREFRONT_DEV_PORT: '0', STOREFRONT_DEV_SERVICE_PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    dev.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 120_000;
      while (!/Storefront:\s+http:\/\/\S+/.test(output)) {
        if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`storefront:dev printed no storefront URL:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const url = /Storefront:\s+(http:\/\/\S+)/.exec(output)?.[1] ?? '';
      const dataDir = /embedded database in (\S+?)\)/.exec(output)?.[1] ?? '';
      expect(existsSync(dataDir)).toBe(true);

      browser = await launchChromium();
      const page = await browser.context.newPage();
      const traces: string[] = [];
      page.on('console', (message) => traces.push(message.text()));
      // The demo shop allows debug traces: ?svc_debug=1 logs each evaluation.
      await openStorefront(page, `${url}/?svc_debug=1`);
      await addFromCard(page, 'organic-cotton-tee', 2);
      await expectGiftVariants(page, [20011]);
      await stepLine(page, 10011, 'decrease');
      await expectGiftVariants(page, []);
      expect(traces.some((text) => text.includes('[svc-gifts] evaluation'))).toBe(true);

      dev.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (dev.exitCode === null) dev.kill('SIGTERM');
    }
  }, 180_000);
});
