//! Figures for docs/benchmarks.md (§6, §8), measured on the real build served by the real
//! server. Asserted: sizes (the JavaScript a first visit downloads, gzip; the bytes on the
//! wire of a first visit to home, which must all come compressed) and axe-core's result.
//! Recorded only, never asserted: timings. The benchmark loads each page a runner opens from
//! a LINE message in a cold phone context on the slow mobile profile of issue #17 (150 ms,
//! 1.6 Mbit/s down, 750 kbit/s up, 4× slower CPU, 375×812 with touch) and records its
//! Largest Contentful Paint, its bytes on the wire and its axe violations; home and the
//! event page are loaded a second time in the same context (a repeat visit). Each page is
//! measured `RACESHOT_BENCH_RUNS` times (default 3, each in a new context) and the median
//! run by LCP is kept: on a shared machine one load varies by ±150 ms. Everything lands in
//! `e2e-artifacts/performance.json` and on the console.

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, clientToken, launch, newPage, photosDir } from './browser';
import { DEMO_EVENT } from './fixtures';
import { axeViolations, NetworkLog, paints, phoneContext, SLOW_MOBILE, type Paint, type Transfer } from './measure';

const dist = resolve(import.meta.dirname, '../dist');
/** gzip of the scripts index.html loads before any page's chunk (131 KB when this budget was
 * 200 KB; 102 KB since the shell lost the data router and the feature texts). */
const INITIAL_JS_BUDGET = 110 * 1024;
/** Issue #17: a first visit to home, everything but pictures, as received. */
const FIRST_VISIT_BUDGET = 150 * 1024;
/** Cold loads per page in the benchmark; the median by LCP is reported. */
const RUNS = Math.max(1, Number(process.env.RACESHOT_BENCH_RUNS ?? 3));

type PageFigures = {
  path: string;
  lcp_ms: number;
  fcp_ms: number;
  lcp_element: string;
  bytes: number;
  image_bytes: number;
  requests: number;
  axe_violations: number;
  lcp_repeat_ms?: number;
  repeat_bytes?: number;
  /** Every run's LCP (and repeat LCP), to show the spread. */
  lcp_runs_ms: number[];
  lcp_repeat_runs_ms?: number[];
};

const figures: {
  initial_js_gzip_bytes?: number;
  home_first_visit_bytes?: number;
  home_first_visit_by_type?: Record<string, number>;
  profile: typeof SLOW_MOBILE;
  pages: Record<string, PageFigures>;
} = { profile: SLOW_MOBILE, pages: {} };
/** axe violations and page errors of the benchmark's pages, checked once all are measured. */
const found: string[] = [];

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  writeFileSync(join(ARTIFACTS, 'performance.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.log('web performance:', JSON.stringify(figures));
  const rows = Object.entries(figures.pages).map(([name, p]) => ({
    page: name,
    'LCP ms': p.lcp_ms,
    'LCP runs': p.lcp_runs_ms.join(' '),
    'FCP ms': p.fcp_ms,
    'LCP element': p.lcp_element,
    'repeat LCP ms': p.lcp_repeat_ms ?? '',
    'bytes': p.bytes,
    'repeat bytes': p.repeat_bytes ?? '',
    'image bytes': p.image_bytes,
    requests: p.requests,
    axe: p.axe_violations,
  }));
  if (rows.length > 0) console.table(rows);
});

/** Scripts `index.html` loads before any route's own chunk. */
export function initialScripts(html: string): string[] {
  const tags = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)];
  return [...new Set(tags.map((m) => m[1]!))];
}

const visible = (testId: string) => (page: Page) => page.getByTestId(testId).first().waitFor({ state: 'visible' });

/** Everything the prepared visits need: a search's results, a cart of two of its photos,
 * and a paid order, made the way a visitor makes them (without throttling). */
async function prepare(): Promise<{ searched: Record<string, string>; cart: Record<string, string>; order: string }> {
  const context = await phoneContext(browser, { [`consent_${DEMO_EVENT}`]: 'Y' });
  const { page, errors } = await newPage(context);
  await page.goto(`/${DEMO_EVENT}`);
  await page.getByTestId('selfie-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
  const cards = page.getByTestId('search-results').getByTestId('photo-card');
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const storage = () => page.evaluate((): Record<string, string> => Object.assign({}, localStorage));
  const searched = await storage();
  await cards.nth(0).getByTestId('add-to-cart').click();
  await cards.nth(1).getByTestId('add-to-cart').click();
  await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('2');
  const cart = await storage();

  await page.goto('/cart');
  await page.getByTestId('mobile-input').fill('0898765432');
  await page.getByTestId('payment-PP').check();
  await page.getByTestId('submit-order').click();
  await page.waitForURL('**/download/*');
  const order = new URL(page.url()).pathname;
  await page.getByTestId('sandbox-pay-link').click();
  await page.waitForURL('**/sandbox/pay/**');
  await page.getByRole('button', { name: /Paid/ }).click();
  await page.waitForURL(`**${order}`);
  // Paid, and both sets of photos made: the page stops polling (so it can go idle), and the
  // server's image work is over before anything is timed.
  await expect.poll(() => page.getByTestId('download-all').isEnabled(), { timeout: 60_000 }).toBe(true);
  const token = await clientToken(page);
  const made = async () => {
    const response = await fetch(new URL('/v3/order/inquiry', page.url()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ order_uuid: order.split('/').pop() }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    return answer.is_original_image_created === 'Y' && answer.is_logo_image_created === 'Y';
  };
  await expect.poll(made, { timeout: 120_000, interval: 1_000 }).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
  return { searched, cart, order };
}

/** One page on the slow mobile profile in a cold context: LCP, bytes, axe; with `repeat`,
 * loaded again in the same context (its cache warm) for the repeat-visit LCP. */
async function benchmark(
  path: string,
  ready: (page: Page) => Promise<void>,
  { storage = {}, repeat = false }: { storage?: Record<string, string>; repeat?: boolean } = {},
): Promise<PageFigures> {
  const context = await phoneContext(browser, storage);
  const { page, errors } = await newPage(context);
  const log = await NetworkLog.start(page);
  await log.throttle();
  const load = async (): Promise<{ paint: Paint; transfer: Transfer }> => {
    await page.goto(path, { waitUntil: 'load' });
    await ready(page);
    await log.idle();
    return { paint: await paints(page), transfer: log.take() };
  };
  const cold = await load();
  const again = repeat ? await load() : undefined;
  await log.unthrottle();
  const violations = await axeViolations(page);
  found.push(...violations.map((v) => `${path}: ${v}`), ...errors.map((e) => `${path}: page error ${e}`));
  await context.close();
  expect(cold.paint.lcp).toBeGreaterThan(0);
  return {
    path,
    lcp_ms: Math.round(cold.paint.lcp),
    fcp_ms: Math.round(cold.paint.fcp),
    lcp_element: cold.paint.element,
    bytes: cold.transfer.bytes,
    image_bytes: cold.transfer.imageBytes,
    requests: cold.transfer.requests,
    axe_violations: violations.length,
    lcp_runs_ms: [Math.round(cold.paint.lcp)],
    ...(again ? { lcp_repeat_ms: Math.round(again.paint.lcp), repeat_bytes: again.transfer.bytes } : {}),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** `RUNS` cold loads of a page: the median run by LCP, with the repeat-visit LCP's own median. */
async function benchmarkRuns(...args: Parameters<typeof benchmark>): Promise<PageFigures> {
  const runs: PageFigures[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await benchmark(...args));
  const lcps = runs.map((r) => r.lcp_ms);
  const kept = runs.find((r) => r.lcp_ms === median(lcps))!;
  const repeats = runs.flatMap((r) => (r.lcp_repeat_ms === undefined ? [] : [r.lcp_repeat_ms]));
  return {
    ...kept,
    lcp_runs_ms: lcps,
    ...(repeats.length > 0 ? { lcp_repeat_ms: median(repeats), lcp_repeat_runs_ms: repeats } : {}),
  };
}

describe('web performance', () => {
  it('the first visit downloads at most 110 KB of gzipped JavaScript', () => {
    const scripts = initialScripts(readFileSync(join(dist, 'index.html'), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const bytes = scripts.reduce((sum, s) => sum + gzipSync(readFileSync(join(dist, s))).length, 0);
    figures.initial_js_gzip_bytes = bytes;
    expect(bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('a first visit to home moves at most 150 KB over the wire, compressed, without asking for the embedded data', async () => {
    const context = await phoneContext(browser);
    const { page, errors } = await newPage(context);
    const log = await NetworkLog.start(page);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v1/events/')) asked.push(new URL(r.url()).pathname);
    });
    const response = await page.goto('/');
    await visible('event-card')(page);
    await log.idle();
    const transfer = log.take();
    figures.home_first_visit_bytes = transfer.bytes;
    figures.home_first_visit_by_type = transfer.byType;
    // The browser asked for compression and got it: the budget counts compressed bytes.
    expect(await response?.request().headerValue('accept-encoding')).toMatch(/\bbr\b/);
    expect(transfer.uncompressed).toEqual([]);
    expect(transfer.byType.Script ?? 0).toBeGreaterThan(0);
    // The text is set in the phone's own fonts.
    expect(transfer.byType.Font ?? 0).toBe(0);
    expect(transfer.bytes).toBeLessThanOrEqual(FIRST_VISIT_BUDGET);
    // The banners, the first page of events and their count came inside the page.
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('benchmarks the pages a runner opens on the slow mobile profile (LCP, bytes, axe)', async () => {
    const { searched, cart, order } = await prepare();
    const pages: [string, string, (page: Page) => Promise<void>, { storage?: Record<string, string>; repeat?: boolean }][] = [
      ['home', '/', visible('event-card'), { repeat: true }],
      // A first visit: the event's terms are asked for before anything else.
      ['event', `/${DEMO_EVENT}`, visible('consent-accept'), { repeat: true }],
      // Back on the event page after a search (its results are kept in the browser).
      ['event_after_search', `/${DEMO_EVENT}`, visible('photo-card'), { storage: searched }],
      ['cart', '/cart', visible('cart-item'), { storage: cart }],
      ['order', order, visible('paid-photo'), {}],
      ['find_order', '/find-order', visible('find-input'), {}],
      ['console_sign_in', '/admin/login', visible('login-email'), {}],
    ];
    for (const [name, path, ready, options] of pages) {
      figures.pages[name] = await benchmarkRuns(path, ready, options);
    }
    expect(Object.keys(figures.pages)).toHaveLength(pages.length);
    expect(found).toEqual([]);
  }, 1_200_000);
});
