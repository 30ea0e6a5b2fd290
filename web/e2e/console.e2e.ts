//! The operator console in a real Chromium against the real server: sign in, create an
//! event, upload 20 photos and watch them become ready (and searchable in the shop), then
//! approve an AM order, after which the visitor's order page shows PAID; a file cut off by
//! a page reload resumes from where the server stands; race results imported from a
//! timing system's file are found by a runner by name, with a finisher certificate whose
//! PDF (read as a PDF reader reads it) holds their time; then the console makes photo
//! passes and gives the event a sponsor frame for sold photos too, the shop shows it over
//! the runner's photos, and the runner's pass pays for them, delivered as a ZIP of
//! originals and one of framed copies; at a price, the runner buys the certificate alone
//! in the cart, pays, and downloads it from the order page.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptConsent, clientToken, launch, newPage, openContext, photosDir, screenshot } from './browser';
import { ADMIN, DEMO_EVENT } from './fixtures';

const EVENT = 'console-run';
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** `jpeg` with a comment segment after its start marker: the same picture, other bytes,
 * so the shop takes it as another photo. */
function variant(jpeg: Buffer, n: number): Buffer {
  const text = Buffer.from(`raceshot console upload ${n}`);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** `jpeg` padded with comment segments to at least `bytes`: a file of several parts. */
function padded(jpeg: Buffer, bytes: number): Buffer {
  const chunks = [jpeg.subarray(0, 2)];
  let size = jpeg.length;
  for (let n = 0; size < bytes; n += 1) {
    const text = Buffer.alloc(65_000, 0x20 + (n % 90));
    const head = Buffer.alloc(4);
    head.writeUInt16BE(0xfffe, 0);
    head.writeUInt16BE(text.length + 2, 2);
    chunks.push(head, text);
    size += text.length + 4;
  }
  chunks.push(jpeg.subarray(2));
  return Buffer.concat(chunks);
}

/** Signs the console's admin in, on the dashboard. */
async function signIn(page: Page) {
  await page.goto('/admin/login');
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === '/admin');
}

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function apiPost(page: Page, path: string, body: unknown): Promise<Record<string, unknown>> {
  const token = await clientToken(page);
  const resp = await fetch(new URL(path, page.url()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(resp.status, `${path}: ${resp.status}`).toBe(200);
  return (await resp.json()) as Record<string, unknown>;
}

describe('the operator console', () => {
  it('signs in, creates an event, uploads 20 photos that become searchable, and approves an AM order after an all-photos purchase', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);

    await page.goto('/admin');
    await page.waitForURL('**/admin/login**');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('not the password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').isVisible()).toBe(true);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await expect.poll(() => page.getByTestId('dashboard').isVisible()).toBe(true);

    // A new event, through the form.
    await page.goto('/admin/events');
    await page.getByTestId('new-event').click();
    await page.waitForURL('**/admin/events/new');
    await page.getByTestId('field-event_key').fill(EVENT);
    await page.getByTestId('field-title').fill('Console Run 2026');
    await page.getByTestId('field-eventdate').fill(day(-1));
    await page.getByTestId('field-on_sale_start').fill(day(-1));
    await page.getByTestId('field-on_sale_end').fill(day(30));
    await page.getByTestId('field-package-0-name').fill('1 รูป');
    await page.getByTestId('field-package-0-name_en').fill('1 photo');
    await page.getByTestId('field-package-0-number_of_photo').fill('1');
    await page.getByTestId('field-package-0-price').fill('60');
    await page.getByTestId('save-event').click();
    await page.waitForURL((url) => url.pathname === '/admin/events');
    const row = page.getByTestId('admin-event-row').filter({ hasText: EVENT });
    await expect.poll(() => row.count()).toBe(1);

    // 20 photos from the browser: the team photo and 19 others.
    await row.getByTestId('event-photos-link').click();
    await page.waitForURL(`**/admin/events/${EVENT}/photos`);
    const gdp = readFileSync(join(photosDir(), 'gdp.jpg'));
    const files = [
      { name: 'players.jpg', mimeType: 'image/jpeg', buffer: readFileSync(join(photosDir(), 'players.jpg')) },
      ...Array.from({ length: 19 }, (_, i) => ({
        name: `IMG_${String(i + 1).padStart(4, '0')}.jpg`,
        mimeType: 'image/jpeg',
        buffer: variant(gdp, i),
      })),
    ];
    await page.getByTestId('photo-input').setInputFiles(files);
    const done = page.locator('[data-testid="upload-row"][data-state="done"]');
    await expect.poll(() => done.count(), { timeout: 120_000 }).toBe(20);
    const ready = page.locator('[data-testid="admin-photo"][data-state="ready"]');
    await expect.poll(() => ready.count(), { timeout: 180_000, interval: 1000 }).toBe(20);
    await screenshot(page, 'console-photos');

    // The shop finds player 13 among them.
    const shop = await newPage(context);
    await shop.page.goto(`/${EVENT}`);
    await acceptConsent(shop.page);
    await shop.page.getByTestId('selfie-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
    const found = shop.page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => found.count(), { timeout: 60_000 }).toBe(1);

    // A runner buys every photo found of him...
    await shop.page.goto(`/${DEMO_EVENT}`);
    await acceptConsent(shop.page);
    await shop.page.getByTestId('selfie-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
    await expect.poll(() => found.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await shop.page.getByTestId('buy-all').click();
    await shop.page.waitForURL('**/cart');
    await shop.page.getByTestId('mobile-input').fill('0855555555');
    await shop.page.getByTestId('payment-PP').check();
    await shop.page.getByTestId('submit-order').click();
    await shop.page.waitForURL('**/download/*');
    await shop.page.getByTestId('sandbox-pay-link').click();
    await shop.page.waitForURL('**/sandbox/pay/**');
    await shop.page.getByRole('button', { name: /Paid/ }).click();
    await shop.page.waitForURL('**/download/*');
    await expect
      .poll(() => shop.page.getByTestId('order-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('PAID');

    // ...then asks for more photos at the wholesale price (AM); the operator approves it.
    const highlight = (await apiPost(shop.page, '/v1/facesearch/highlight', { event_key: DEMO_EVENT })) as {
      body: { id: number }[];
    };
    const ids = highlight.body.slice(0, 2).map((p) => p.id);
    const quote = await apiPost(shop.page, '/api/cart/quote', { event_key: DEMO_EVENT, image_ids: ids, is_mhao: 'N', wholesale: true });
    const created = await apiPost(shop.page, '/v1/order/create', {
      mobile: '0855555555',
      event_key: DEMO_EVENT,
      amount: quote.amount,
      paid_amount: quote.paid_amount,
      imageList: ids.map((id) => ({ id })),
      image_length: ids.length,
      is_mhao: 'N',
      payment_gateway: 'SANDBOX',
      payment_channel: 'AM',
      wholesale: true,
    });
    const uuid = String(created.uuid);
    await shop.page.goto(`/download/${uuid}`);
    await expect.poll(() => shop.page.getByTestId('order-status').getAttribute('data-status')).toBe('INITIAL');
    await expect.poll(() => shop.page.getByTestId('am-request-text').isVisible()).toBe(true);

    await page.goto('/admin/orders?channel=AM&status=INITIAL');
    const order = page.getByTestId('admin-order-row').filter({ hasText: uuid.slice(0, 8) });
    await expect.poll(() => order.count()).toBe(1);
    await page.goto(`/admin/orders/${uuid}`);
    await page.getByTestId('approve-order').click();
    await page.locator('dialog').getByRole('button').last().click();
    await expect.poll(() => page.getByTestId('approve-order').count()).toBe(0);

    await shop.page.reload();
    await expect.poll(() => shop.page.getByTestId('order-status').getAttribute('data-status'), { timeout: 30_000 }).toBe('PAID');

    await page.goto('/admin/audit');
    await expect.poll(() => page.getByTestId('audit-row').count()).toBeGreaterThan(3);
    expect(await page.getByTestId('audit-table').textContent()).toContain('order.approve');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resumes a file cut off by a page reload from where the server stands', async () => {
    const context = await openContext(browser);
    const { page } = await newPage(context);
    await signIn(page);
    // The event the first test made (the demo event's photos are counted elsewhere).
    await page.goto(`/admin/events/${EVENT}/photos`);

    // 20 MB: three parts of 8 MiB. On disk, so that the file chosen again is the same file.
    const file = join(mkdtempSync(join(tmpdir(), 'raceshot-e2e-')), 'BIG_0001.jpg');
    writeFileSync(file, padded(readFileSync(join(photosDir(), 'gdp.jpg')), 20_000_000));
    const part = 8 * 1024 * 1024;
    const offsets: string[] = [];
    const standing: string[] = [];
    let creations = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/uploads') creations += 1;
      if (r.method() === 'PATCH') offsets.push(r.headers()['upload-offset'] ?? '');
    });
    page.on('response', (r) => {
      if (r.request().method() === 'HEAD') standing.push(r.headers()['upload-offset'] ?? '');
    });
    // The network gives out after the first part: every later part fails.
    let cut = 0;
    await page.route('**/api/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH' && route.request().headers()['upload-offset'] !== '0') {
        cut += 1;
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    await page.getByTestId('photo-input').setInputFiles(file);
    await expect.poll(() => cut, { timeout: 60_000 }).toBeGreaterThan(0);

    // The page is reloaded, the network is back, and the same file is chosen again.
    await page.reload();
    await page.unroute('**/api/uploads/*');
    offsets.length = 0;
    standing.length = 0;
    await page.getByTestId('photo-input').setInputFiles(file);
    const done = page.locator('[data-testid="upload-row"][data-state="done"]');
    await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(1);
    // No new upload was made: the client asked where the server stands, and went on from
    // there (the first part, at least, was not sent again).
    expect(creations).toBe(1);
    expect(standing[0]).toBeDefined();
    expect(offsets[0]).toBe(standing[0]);
    expect(Number(offsets[0])).toBeGreaterThanOrEqual(part);
    expect(offsets).not.toContain('0');
    await context.close();
  });

  it('imports race results, offers certificates, a runner downloads theirs with their time, and their photo pass pays for their photos, framed by the sponsor; a priced certificate is bought and downloaded', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await signIn(page);
    await page.goto(`/admin/events/${DEMO_EVENT}/results`);
    const csv = 'Bib No.,ชื่อ-นามสกุล,Distance,Chip Time,Overall Rank\n13,เหยา หมิง,42.195K,2:59:58,7\n';
    await page.getByTestId('results-file').setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('results-checked').isVisible()).toBe(true);
    await page.getByTestId('results-import').click();
    await expect.poll(() => page.getByTestId('results-last').textContent()).toMatch(/1/);
    await page.getByTestId('certificates-offered').check();
    await page.getByTestId('certificates-price').fill('0');
    await page.getByTestId('certificates-save').click();
    await expect.poll(() => page.getByTestId('certificates-image-state').isVisible()).toBe(true);

    // The sponsor's frame (an SVG: a border and a banner), for sold photos too.
    await page.goto(`/admin/events/${DEMO_EVENT}/frame`);
    const frame =
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">' +
      '<rect x="6" y="6" width="288" height="188" fill="none" stroke="#e4002b" stroke-width="12"/>' +
      '<rect x="0" y="170" width="300" height="30" fill="#e4002b"/>' +
      '<text x="150" y="192" font-size="18" fill="#fff" text-anchor="middle">ผู้สนับสนุน</text></svg>';
    await page.getByTestId('frame-file').setInputFiles({ name: 'frame.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(frame) });
    await page.getByTestId('frame-upload').click();
    await expect.poll(() => page.getByTestId('frame-preview').isVisible()).toBe(true);
    await page.getByTestId('frame-on-sold').check();
    await expect.poll(() => page.getByTestId('frame-on-sold').isChecked()).toBe(true);
    await screenshot(page, 'console-frame');

    // The runner finds their row by a part of their name and downloads the A4 PDF.
    const shop = await newPage(context);
    await shop.page.goto(`/${DEMO_EVENT}`);
    await acceptConsent(shop.page);
    await shop.page.getByTestId('result-input').fill('เหยา');
    await shop.page.getByTestId('result-submit').click();
    await expect.poll(() => shop.page.getByTestId('result-row').count()).toBe(1);
    await expect.poll(() => shop.page.getByTestId('certificate').isVisible()).toBe(true);
    await screenshot(shop.page, 'shop-certificate');
    const [download] = await Promise.all([
      shop.page.waitForEvent('download'),
      shop.page.getByTestId('certificate-print').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certificate-${DEMO_EVENT}-13.pdf`);
    const path = await download.path();
    const pdf = await getDocument({ data: new Uint8Array(readFileSync(path)) }).promise;
    const content = await (await pdf.getPage(1)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    expect(text).toContain('2:59:58');
    expect(text).toContain('BIB 13');

    // The organiser's passes: a batch made in the console, its codes downloaded once.
    await page.goto(`/admin/events/${DEMO_EVENT}/passes`);
    await page.getByTestId('passes-batch').fill('Entry');
    await page.getByTestId('passes-count').fill('2');
    await page.getByTestId('passes-cover-all').check();
    const [codes] = await Promise.all([page.waitForEvent('download'), page.getByTestId('passes-submit').click()]);
    expect(codes.suggestedFilename()).toBe(`passes-${DEMO_EVENT}-Entry.csv`);
    const lines = readFileSync(await codes.path(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const code = lines[1]!.split(',')[0]!;
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    await expect.poll(() => page.getByTestId('passes-row').count()).toBe(1);

    // The runner takes every photo of their bib, and their pass pays for them: a FREE order,
    // delivered, downloaded as a ZIP.
    await shop.page.getByTestId('result-photos').click();
    const found = shop.page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => found.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const photoCount = await found.count();
    // The shop shows the frame over the runner's photos, as the framed copies will carry it.
    await expect.poll(() => found.first().getByTestId('photo-frame').isVisible(), { timeout: 30_000 }).toBe(true);
    await shop.page.getByTestId('buy-all').click();
    await shop.page.waitForURL('**/cart');
    await shop.page.getByTestId('pass-input').fill(code.toLowerCase());
    await shop.page.getByTestId('pass-apply').click();
    await expect.poll(() => shop.page.getByTestId('pass-pays').isVisible()).toBe(true);
    await expect.poll(() => shop.page.getByTestId('cart-final-payment').textContent()).toContain('0.00');
    await screenshot(shop.page, 'shop-cart-pass');
    await shop.page.getByTestId('mobile-input').fill('0866666666');
    await shop.page.getByTestId('submit-order').click();
    await shop.page.waitForURL('**/download/*');
    const uuid = shop.page.url().split('/download/')[1] ?? '';
    await expect
      .poll(() => shop.page.getByTestId('order-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('PAID');
    const downloadAll = shop.page.getByTestId('download-all');
    await expect.poll(() => downloadAll.isEnabled(), { timeout: 60_000 }).toBe(true);
    const [zipped] = await Promise.all([
      shop.page.waitForEvent('download'),
      (async () => {
        await downloadAll.click();
        await shop.page.locator('dialog').getByRole('button').last().click();
      })(),
    ]);
    expect(zipped.suggestedFilename()).toBe(`${uuid}.zip`);
    const zip = await JSZip.loadAsync(readFileSync(await zipped.path()));
    expect(Object.keys(zip.files)).toHaveLength(photoCount);
    const framedAll = shop.page.getByTestId('download-all-frame');
    await expect.poll(() => framedAll.isEnabled(), { timeout: 60_000 }).toBe(true);
    const [framed] = await Promise.all([
      shop.page.waitForEvent('download'),
      (async () => {
        await framedAll.click();
        await shop.page.locator('dialog').getByRole('button').last().click();
      })(),
    ]);
    expect(framed.suggestedFilename()).toBe(`${uuid}-frame.zip`);
    const framedZip = await JSZip.loadAsync(readFileSync(await framed.path()));
    const names = Object.keys(framedZip.files);
    expect(names).toHaveLength(photoCount);
    expect(names.every((n) => n.startsWith('frame_'))).toBe(true);
    await screenshot(shop.page, 'shop-order-frame');

    // Used once; the console counts it.
    await page.reload();
    await expect.poll(() => page.getByTestId('passes-redeemed').first().textContent()).toBe('1');

    // The organiser now sells certificates: the runner buys theirs alone, pays, and
    // downloads it from the order page, with their time in it.
    await page.goto(`/admin/events/${DEMO_EVENT}/results`);
    await expect.poll(() => page.getByTestId('certificates-offered').isChecked()).toBe(true);
    await page.getByTestId('certificates-price').fill('49');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/certificates') && r.request().method() === 'PUT' && r.ok()),
      page.getByTestId('certificates-save').click(),
    ]);
    await shop.page.goto(`/${DEMO_EVENT}`);
    await shop.page.getByTestId('result-input').fill('เหยา');
    await shop.page.getByTestId('result-submit').click();
    await expect.poll(() => shop.page.getByTestId('certificate-add').isVisible()).toBe(true);
    await shop.page.getByTestId('certificate-add').click();
    await shop.page.getByTestId('certificate-in-cart').click();
    await shop.page.waitForURL('**/cart');
    await expect.poll(() => shop.page.getByTestId('cart-certificate').textContent()).toContain('13');
    // 49.00 and the 5% fee: 51.45, as the server priced it.
    await expect.poll(() => shop.page.getByTestId('cart-final-payment').textContent()).toContain('51.45');
    await screenshot(shop.page, 'shop-cart-certificate');
    await shop.page.getByTestId('mobile-input').fill('0866666666');
    await shop.page.getByTestId('payment-PP').check();
    await shop.page.getByTestId('submit-order').click();
    await shop.page.waitForURL('**/download/*');
    const certificateOrder = shop.page.url().split('/download/')[1] ?? '';
    await expect.poll(() => shop.page.getByTestId('payment-qr').isVisible()).toBe(true);
    await shop.page.getByTestId('sandbox-pay-link').click();
    await shop.page.waitForURL('**/sandbox/pay/**');
    await shop.page.getByRole('button', { name: /Paid/ }).click();
    await shop.page.waitForURL(`**/download/${certificateOrder}`);
    await expect
      .poll(() => shop.page.getByTestId('order-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('PAID');
    await expect.poll(() => shop.page.getByTestId('order-certificate').isVisible()).toBe(true);
    expect(await shop.page.getByTestId('download-all').count()).toBe(0);
    await screenshot(shop.page, 'shop-order-certificate');
    const [bought] = await Promise.all([
      shop.page.waitForEvent('download'),
      shop.page.getByTestId('order-certificate-print').click(),
    ]);
    expect(bought.suggestedFilename()).toBe(`certificate-${DEMO_EVENT}-13.pdf`);
    const boughtPdf = await getDocument({ data: new Uint8Array(readFileSync(await bought.path())) }).promise;
    const boughtText = (await (await boughtPdf.getPage(1)).getTextContent()).items
      .map((item) => ('str' in item ? item.str : ''))
      .join('');
    expect(boughtText).toContain('2:59:58');
    expect(errors).toEqual([]);
    expect(shop.errors).toEqual([]);
    await context.close();
  });

  it('fits a 375 px screen', async () => {
    const context = await openContext(browser, { width: 375, height: 812 });
    const { page } = await newPage(context);
    await signIn(page);
    for (const path of ['/admin', '/admin/events', '/admin/orders', `/admin/events/${EVENT}/photos`]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `console-mobile${path.replaceAll('/', '-')}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});
