//! Figures for docs/benchmarks.md, measured on the real build: the JavaScript a first visit
//! downloads (gzip), held to its 200 KB budget, and Largest Contentful Paint of the home and
//! event pages in a cold browser context (recorded, not asserted: timings are benchmarks).

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launch, newPage, openContext } from './browser';
import { DEMO_EVENT } from './fixtures';

const dist = resolve(import.meta.dirname, '../dist');
const INITIAL_JS_BUDGET = 200 * 1024;
const figures: Record<string, number> = {};
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  writeFileSync(join(ARTIFACTS, 'performance.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.log('web performance:', JSON.stringify(figures));
});

/** Scripts `index.html` loads before any route's own chunk. */
export function initialScripts(html: string): string[] {
  const found = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)];
  return [...new Set(found.map((m) => m[1]!))];
}

async function largestContentfulPaint(page: Page, path: string, ready: () => Promise<unknown>): Promise<number> {
  await page.goto(path, { waitUntil: 'load' });
  await ready();
  return page.evaluate(
    () =>
      new Promise<number>((done) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          done(entries[entries.length - 1]?.startTime ?? NaN);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

describe('web performance', () => {
  it('the first visit downloads at most 200 KB of gzipped JavaScript', () => {
    const scripts = initialScripts(readFileSync(join(dist, 'index.html'), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const bytes = scripts.reduce((sum, s) => sum + gzipSync(readFileSync(join(dist, s))).length, 0);
    figures.initial_js_gzip_bytes = bytes;
    expect(bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('measures Largest Contentful Paint of the home and event pages', async () => {
    for (const [name, path, testId] of [
      ['lcp_home_ms', '/', 'event-card'],
      ['lcp_event_ms', `/${DEMO_EVENT}`, 'consent-accept'],
    ] as const) {
      const context = await openContext(browser);
      const { page } = await newPage(context);
      const lcp = await largestContentfulPaint(page, path, () =>
        page.getByTestId(testId).first().waitFor({ state: 'visible' }),
      );
      figures[name] = Math.round(lcp);
      expect(lcp).toBeGreaterThan(0);
      await context.close();
    }
  });
});
