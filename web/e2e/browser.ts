//! Debian's Chromium driven by playwright-core (no browser download), one browser per test
//! file, a fresh context per test; screenshots go to `e2e-artifacts/`.

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const ARTIFACTS = resolve(import.meta.dirname, '../e2e-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export const baseUrl = () => inject('baseUrl');
export const photosDir = () => inject('photosDir');

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function openContext(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, acceptDownloads: true });
  context.setDefaultTimeout(30_000);
  return context;
}

/** A new page that fails the test on uncaught page errors. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Agrees to the event's terms when the consent dialog asks. */
export async function acceptConsent(page: Page) {
  await page.getByTestId('consent-accept').click();
}

/** The client token the page was served with, for calling the API as the page does. */
export async function clientToken(page: Page): Promise<string> {
  return page.locator('meta[name="raceshot-client-token"]').getAttribute('content').then((t) => t ?? '');
}
