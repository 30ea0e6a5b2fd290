//! How the browser suite measures a page load: bytes on the wire as Chromium received them
//! (encoded, headers included, from CDP's `Network.loadingFinished`), Largest Contentful
//! Paint, the slow mobile profile of issue #17 applied through CDP, and axe-core's WCAG 2
//! A/AA checks. Used by performance.e2e.ts (budgets and the benchmark of
//! docs/benchmarks.md §8) and accessibility.e2e.ts.

import axe from 'axe-core';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { baseUrl } from './browser';

/** A runner's phone on a congested network: what the issue measured with. */
export const SLOW_MOBILE = {
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  cpuSlowdown: 4,
  viewport: { width: 375, height: 812 },
} as const;

/** The WCAG 2.0 and 2.1 rules, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A phone-sized context: 375×812, touch, a phone's pixel ratio; `storage` is put into
 * localStorage before any page script runs (consent, cart, latest search). */
export async function phoneContext(browser: Browser, storage: Record<string, string> = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: SLOW_MOBILE.viewport,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  context.setDefaultTimeout(60_000);
  if (Object.keys(storage).length > 0) {
    await context.addInitScript((entries) => {
      // Only on the first document: later loads (the repeat visit) keep what the page wrote.
      if (sessionStorage.getItem('e2e-seeded') !== null) return;
      sessionStorage.setItem('e2e-seeded', '1');
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, storage);
  }
  return context;
}

type Request = { url: string; type: string; bytes: number; encoding: string; done: boolean };

/** What a page load took from the network. Images are counted apart: the byte budget is for
 * what the page itself is made of (document, scripts, styles, fonts, data). */
export type Transfer = {
  /** Everything but images and media, as received (encoded), response headers included. */
  bytes: number;
  imageBytes: number;
  requests: number;
  /** Scripts, styles and data answers that came without a content encoding. */
  uncompressed: string[];
  byType: Record<string, number>;
};

/** Records the network of one page through CDP, from now until `take()`. */
export class NetworkLog {
  private readonly requests = new Map<string, Request>();
  private lastActivity = Date.now();

  private constructor(readonly cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.startsWith('data:')) return;
      this.lastActivity = Date.now();
      this.requests.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', bytes: 0, encoding: '', done: false });
    });
    cdp.on('Network.responseReceived', (e) => {
      const r = this.requests.get(e.requestId);
      if (!r) return;
      r.type = e.type;
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      r.encoding = headers['content-encoding'] ?? '';
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = this.requests.get(e.requestId);
      this.lastActivity = Date.now();
      if (!r) return;
      r.bytes = e.encodedDataLength;
      r.done = true;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = this.requests.get(e.requestId);
      this.lastActivity = Date.now();
      if (r) r.done = true;
    });
  }

  static async start(page: Page): Promise<NetworkLog> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    return new NetworkLog(cdp);
  }

  /** The slow mobile profile: latency, throughput and a 4× slower CPU. */
  async throttle(): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_MOBILE.latencyMs,
      downloadThroughput: SLOW_MOBILE.downloadBitsPerSecond / 8,
      uploadThroughput: SLOW_MOBILE.uploadBitsPerSecond / 8,
    });
    await this.cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_MOBILE.cpuSlowdown });
  }

  async unthrottle(): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await this.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }

  /** Resolves once nothing has been in flight for `quietMs` (the page is idle). */
  async idle(quietMs = 1_000, maxMs = 60_000): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline) {
      const busy = [...this.requests.values()].some((r) => !r.done);
      if (!busy && Date.now() - this.lastActivity >= quietMs) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pending = [...this.requests.values()].filter((r) => !r.done).map((r) => r.url);
    throw new Error(`the page never went idle; still loading: ${pending.join(', ')}`);
  }

  /** What was loaded since the start (or the last `take`), and forgets it. */
  take(): Transfer {
    const all = [...this.requests.values()];
    this.requests.clear();
    const isImage = (r: Request) => r.type === 'Image' || r.type === 'Media';
    const byType: Record<string, number> = {};
    for (const r of all) byType[r.type] = (byType[r.type] ?? 0) + r.bytes;
    const compressible = new Set(['Script', 'Stylesheet', 'Document', 'Fetch', 'XHR']);
    return {
      bytes: all.filter((r) => !isImage(r)).reduce((n, r) => n + r.bytes, 0),
      imageBytes: all.filter(isImage).reduce((n, r) => n + r.bytes, 0),
      requests: all.length,
      // Only answers with a body can be compressed (a repeat visit gets 304s and cache hits).
      uncompressed: all
        .filter((r) => compressible.has(r.type) && r.encoding === '' && r.bytes > 1_000)
        .map((r) => `${r.type} ${r.url}`),
      byType,
    };
  }
}

export type Paint = {
  /** Largest Contentful Paint, ms from navigation start. */
  lcp: number;
  /** First Contentful Paint, ms from navigation start. */
  fcp: number;
  /** What the largest paint was: a picture's file name, or an element's tag. */
  element: string;
};

/** The paints of the page's document so far. */
export function paints(page: Page): Promise<Paint> {
  return page.evaluate(
    () =>
      new Promise<Paint>((done) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        new PerformanceObserver((list) => {
          const last: (PerformanceEntry & { url?: string; element?: Element | null }) | undefined = list.getEntries().at(-1);
          const element = last?.url ? (last.url.split('/').pop() ?? '') : (last?.element?.tagName.toLowerCase() ?? '');
          done({ lcp: last?.startTime ?? NaN, fcp, element });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        // No entry at all (nothing painted) must not hang the suite.
        setTimeout(() => done({ lcp: NaN, fcp, element: '' }), 5_000);
      }),
  );
}

/** axe-core's WCAG 2 A/AA violations on the page as it is now, one line per rule and
 * element. The page's CSP forbids inline scripts; code evaluated through CDP is not bound
 * by it. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async (tags) => {
    const { axe: injected } = window as unknown as { axe: typeof axe };
    const result = await injected.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, WCAG_TAGS);
  return violations.flatMap((v) => v.targets.map((t) => `${v.id} (${v.impact}): ${t}`));
}
