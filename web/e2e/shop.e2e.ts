//! The shop as a visitor uses it, in a real Chromium against a real `raceshot serve`:
//! language, the whole purchase with the SANDBOX gateway down to the ZIP's contents,
//! refusals, find-order, the QR page, a free-download event with "not me", the bib search
//! and the manual search page, small screens, the group search, a request to hide one's
//! photos decided in the console, and an alert of new photos on LINE.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTIFACTS, acceptConsent, clientToken, launch, newPage, openContext, photosDir, screenshot } from './browser';
import { ADMIN, DEMO_EVENT, FREE_EVENT, SECOND_EVENT } from './fixtures';

type CartItem = { id: number; event_key: string; original_file_name: string; photographer_id: number };

let browser: Browser;
/** The order bought in the purchase scenario, used by the later ones. */
const bought = { uuid: '', mobile: '0812345678' };

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

async function searchSelfie(page: Page, file = join(photosDir(), 'yaoming.jpg')) {
  await page.getByTestId('selfie-input').setInputFiles(file);
}

async function readCart(page: Page, key = 'cart'): Promise<CartItem[]> {
  return page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '[]') as CartItem[], key);
}

/** Signs in to the console as the admin in a page of `context` and makes an event on sale
 * from yesterday for a month, through the event form; answers the console's page. */
async function consoleWithEvent(context: BrowserContext, event: string, title: string): Promise<Page> {
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const { page: admin } = await newPage(context);
  await admin.goto('/admin/login');
  await admin.getByTestId('login-email').fill(ADMIN.email);
  await admin.getByTestId('login-password').fill(ADMIN.password);
  await admin.getByTestId('login-submit').click();
  await admin.waitForURL((url) => url.pathname === '/admin');
  await admin.goto('/admin/events/new');
  await admin.getByTestId('field-event_key').fill(event);
  await admin.getByTestId('field-title').fill(title);
  await admin.getByTestId('field-eventdate').fill(day(-1));
  await admin.getByTestId('field-on_sale_start').fill(day(-1));
  await admin.getByTestId('field-on_sale_end').fill(day(30));
  await admin.getByTestId('field-package-0-name').fill('1 รูป');
  await admin.getByTestId('field-package-0-name_en').fill('1 photo');
  await admin.getByTestId('field-package-0-number_of_photo').fill('1');
  await admin.getByTestId('field-package-0-price').fill('60');
  await admin.getByTestId('save-event').click();
  await admin.waitForURL((url) => url.pathname === '/admin/events');
  return admin;
}

describe('the shop', () => {
  it('(a) speaks Thai by default and keeps English after a reload', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await page.goto('/');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('th');
    await expect.poll(() => page.getByRole('link', { name: 'เกี่ยวกับเรา' }).first().isVisible()).toBe(true);

    await page.getByRole('button', { name: 'EN' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await page.reload();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await expect.poll(() => page.getByRole('link', { name: 'About' }).first().isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('currentLanguage'))).toBe('en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(b) finds player 13 by his selfie, sells two photos at the server’s price and delivers exactly them', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await page.goto(`/${DEMO_EVENT}`);
    await acceptConsent(page);
    expect(await page.evaluate((k) => localStorage.getItem(`consent_${k}`), DEMO_EVENT)).toBe('Y');

    await searchSelfie(page);
    const cards = page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBe(3);

    await cards.nth(0).getByTestId('add-to-cart').click();
    await cards.nth(1).getByTestId('add-to-cart').click();
    // Adding the same photo again never puts it in twice.
    await expect.poll(() => cards.nth(0).getByTestId('remove-from-cart').isVisible()).toBe(true);
    const cart = await readCart(page);
    expect(cart.map((i) => i.id)).toHaveLength(2);
    expect(new Set(cart.map((i) => i.id)).size).toBe(2);
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('2');

    await page.getByTestId('cart-icon').click();
    await page.waitForURL('**/cart');
    await expect.poll(() => page.getByTestId('cart-item').count()).toBe(2);

    // The totals shown are the server's quote for the same photos.
    const token = await clientToken(page);
    const quote = (await (
      await fetch(new URL('/api/cart/quote', page.url()), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ event_key: DEMO_EVENT, image_ids: cart.map((i) => i.id), is_mhao: 'N' }),
      })
    ).json()) as Record<string, number>;
    const baht = (n: number | undefined) => (n ?? NaN).toLocaleString('en-US', { minimumFractionDigits: 2 });
    await expect.poll(() => page.getByTestId('cart-final-payment').textContent()).toContain(baht(quote.cart_final_payment));
    expect(await page.getByTestId('cart-full-amt').textContent()).toContain(baht(quote.cart_full_amt));
    expect(await page.getByTestId('cart-discount').textContent()).toContain(baht(quote.cart_discount));
    expect(await page.getByTestId('cart-amt').textContent()).toContain(baht(quote.cart_amt));
    expect(await page.getByTestId('cart-fee').textContent()).toContain(baht(quote.cart_payment_fee));
    expect(quote.cart_amt).toBe(120);

    await page.getByTestId('mobile-input').fill(bought.mobile);
    await page.getByTestId('payment-PP').check();
    await page.getByTestId('submit-order').click();
    await page.waitForURL('**/download/*');
    bought.uuid = page.url().split('/download/')[1] ?? '';
    expect(bought.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await readCart(page)).toEqual([]);

    await expect.poll(() => page.getByTestId('order-status').getAttribute('data-status')).toBe('INITIAL');
    // "Send to my LINE": through LINE Login (a local stand-in) and back to the order; the
    // order's link is pushed to the runner's LINE at once, its news when it is paid.
    const pushed = async () => (await (await fetch(`${inject('lineUrl')}/_pushed`)).json()) as { to: string; messages: { altText: string }[] }[];
    const before = (await pushed()).length;
    await page.getByTestId('send-to-line-link').click();
    await page.waitForURL(`**/download/${bought.uuid}?line=linked`);
    await expect.poll(() => page.getByTestId('line-outcome').getAttribute('data-outcome')).toBe('linked');
    await expect.poll(async () => (await pushed()).length, { timeout: 30_000 }).toBe(before + 1);
    expect((await pushed())[before]!.messages[0]!.altText).toContain('Your order');
    await expect.poll(() => page.getByTestId('payment-qr').isVisible()).toBe(true);
    await page.getByTestId('sandbox-pay-link').click();
    await page.waitForURL('**/sandbox/pay/**');
    await page.getByRole('button', { name: /Paid/ }).click();
    await page.waitForURL(`**/download/${bought.uuid}`);
    await expect.poll(() => page.getByTestId('order-status').getAttribute('data-status'), { timeout: 30_000 }).toBe('PAID');

    await expect.poll(async () => (await pushed()).length, { timeout: 30_000 }).toBe(before + 2);
    expect((await pushed())[before + 1]!.messages[0]!.altText).toContain('Your photos are ready');

    const downloadAll = page.getByTestId('download-all');
    await expect.poll(() => downloadAll.isEnabled(), { timeout: 60_000 }).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await downloadAll.click();
        // The dialog's confirming button comes last.
        await page.locator('dialog').getByRole('button').last().click();
      })(),
    ]);
    expect(download.suggestedFilename()).toBe(`${bought.uuid}.zip`);
    const path = join(ARTIFACTS, `${bought.uuid}.zip`);
    await download.saveAs(path);
    const zip = await JSZip.loadAsync(readFileSync(path));
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual(cart.map((i) => `${i.photographer_id}_${i.original_file_name}`).sort());
    for (const name of names) {
      const bytes = await zip.file(name)!.async('uint8array');
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    }

    // The device that placed the order lists it on the find-order page, with its link.
    await page.goto('/find-order');
    await expect.poll(() => page.getByTestId('device-order').count()).toBe(1);
    await page.getByTestId('device-orders').locator(`a[href="/download/${bought.uuid}"]`).click();
    await page.waitForURL(`**/download/${bought.uuid}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(c) refuses a text file, a 6 MB image, a 9-digit mobile and a cart mixing events', async () => {
    const context = await openContext(browser);
    const { page } = await newPage(context);
    await page.addInitScript((k) => localStorage.setItem(`consent_${k}`, 'Y'), DEMO_EVENT);
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/facesearch') || r.url().includes('/v1/order/find-order')) searches.push(r.url());
    });
    await page.goto(`/${DEMO_EVENT}`);

    await page.getByTestId('selfie-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => page.locator('dialog').textContent()).toMatch(/jpg|png/);
    await page.locator('dialog').getByRole('button').last().click();

    const big = Buffer.alloc(6_000_000, 0);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    await page.getByTestId('selfie-input').setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: big });
    await expect.poll(() => page.locator('dialog').textContent()).toMatch(/5\s?MB/);
    await page.locator('dialog').getByRole('button').last().click();
    expect(searches.filter((u) => u.includes('/facesearch/sign') || u.endsWith('/v2/facesearch'))).toEqual([]);

    await page.goto('/find-order');
    await page.getByTestId('find-input').fill('081234567');
    await page.getByTestId('find-submit').click();
    await expect.poll(() => page.getByTestId('find-error').isVisible()).toBe(true);
    expect(searches.filter((u) => u.includes('/v1/order/find-order'))).toEqual([]);

    // Photos of two events in one cart: a warning and no order form.
    const token = await clientToken(page);
    const highlight = async (event_key: string) =>
      (
        (await (
          await fetch(new URL('/v1/facesearch/highlight', page.url()), {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ event_key }),
          })
        ).json()) as { body: object[] }
      ).body.map((p) => ({ ...p, event_key, atc: 'Y' }));
    const mixed = [...(await highlight(DEMO_EVENT)).slice(0, 1), ...(await highlight(SECOND_EVENT)).slice(0, 1)];
    expect(mixed).toHaveLength(2);
    await page.evaluate((items) => localStorage.setItem('cart', JSON.stringify(items)), mixed);
    await page.goto('/cart');
    await expect.poll(() => page.getByTestId('mixed-events-warning').isVisible()).toBe(true);
    expect(await page.getByTestId('submit-order').count()).toBe(0);
    expect(await page.getByTestId('mobile-input').count()).toBe(0);
    await context.close();
  });

  it('(d) finds the order by its mobile number on another device, and opens nothing with it', async () => {
    expect(bought.uuid).not.toBe('');
    const context = await openContext(browser);
    const { page } = await newPage(context);
    await page.goto('/find-order');
    await page.getByTestId('filter-mobile').check();
    await page.getByTestId('find-input').fill(bought.mobile);
    await page.getByTestId('find-submit').click();
    const row = page.getByTestId('find-results').getByTestId('find-row');
    await expect.poll(() => row.count()).toBeGreaterThan(0);
    // The demo shop sends no mail: the row says how to get the link again, and no page of
    // this device links to the order.
    await expect.poll(() => row.first().getByTestId('find-code-none').isVisible()).toBe(true);
    expect(await page.content()).not.toContain(bought.uuid);
    expect(await page.getByTestId('device-orders').count()).toBe(0);
    await context.close();
  });

  it('(e) the QR page downloads both PNGs', async () => {
    const context = await openContext(browser);
    const { page } = await newPage(context);
    await page.goto(`/${DEMO_EVENT}/qr`);
    await expect.poll(() => page.getByTestId('qr-code').isVisible()).toBe(true);
    for (const [testId, name] of [
      ['download-logo-qr', `${DEMO_EVENT}-logo-qr.png`],
      ['download-qr', `${DEMO_EVENT}-qr.png`],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
      expect(download.suggestedFilename()).toBe(name);
      const path = join(ARTIFACTS, name);
      await download.saveAs(path);
      const png = readFileSync(path);
      expect([...png.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
      // A 1000 px square canvas.
      expect(png.readUInt32BE(16)).toBe(1000);
      expect(png.readUInt32BE(20)).toBe(1000);
    }
    await context.close();
  });

  it('(f) a free-download event downloads a photo directly; "not me" takes one out for good', async () => {
    const context = await openContext(browser);
    const { page } = await newPage(context);
    await page.goto(`/${FREE_EVENT}`);
    await acceptConsent(page);
    await searchSelfie(page);
    const cards = page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('add-to-cart').count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      cards.first().getByTestId('download-photo').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^\d+_players\.jpg$/);
    const path = join(ARTIFACTS, download.suggestedFilename());
    await download.saveAs(path);
    expect([...readFileSync(path).subarray(0, 2)]).toEqual([0xff, 0xd8]);

    // "Not me" takes a photo out of the results, and a reload keeps it out.
    const before = await cards.count();
    const dismissed = await cards.first().getAttribute('data-photo-id');
    await cards.first().getByTestId('not-me').click();
    await expect.poll(() => cards.count()).toBe(before - 1);
    await page.reload();
    await expect.poll(() => page.getByTestId('search-results').getByTestId('photo-card').count()).toBe(before - 1);
    expect(await page.locator(`[data-testid="photo-card"][data-photo-id="${dismissed ?? ''}"]`).count()).toBe(0);
    await context.close();
  });

  it('(h) finds player 13 by the number on his shirt, telling which photos the number itself found', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await page.addInitScript((k) => localStorage.setItem(`consent_${k}`, 'Y'), DEMO_EVENT);
    const asked: unknown[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/bibsearch') asked.push(r.postDataJSON());
    });
    await page.goto(`/${DEMO_EVENT}`);
    await page.getByTestId('bib-input').fill('13');
    await page.getByTestId('bib-submit').click();

    const results = page.getByTestId('search-results');
    const cards = results.getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(asked).toEqual([{ event_key: DEMO_EVENT, bib: '13' }]);
    // Every result says how it was found; the photos where the number was read come first,
    // and there is at least one (the reading is real, so no exact count is assumed).
    const matchedBy = await results
      .getByTestId('match-badge')
      .evaluateAll((badges) => badges.map((b) => b.getAttribute('data-matched-by')));
    expect(matchedBy).toHaveLength(await cards.count());
    expect(matchedBy[0]).toBe('bib');
    expect(matchedBy.every((m) => m === 'bib' || m === 'face')).toBe(true);
    expect(matchedBy.indexOf('face') === -1 || matchedBy.lastIndexOf('bib') < matchedBy.indexOf('face')).toBe(true);
    expect(await results.locator('[data-matched-by="bib"]').first().textContent()).toBe('บิบ');
    expect(await page.getByTestId('search-count').textContent()).toContain('13');

    // The results are the cart's like a selfie's.
    await cards.first().getByTestId('add-to-cart').click();
    await expect.poll(async () => (await readCart(page)).length).toBe(1);
    await screenshot(page, 'bib-search');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(i) the manual search lists every photo in the order taken, filters them and sells one', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await page.addInitScript((k) => localStorage.setItem(`consent_${k}`, 'Y'), DEMO_EVENT);
    const bodies: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/manual') bodies.push(r.postDataJSON() as Record<string, unknown>);
    });
    await page.goto(`/${DEMO_EVENT}/manual`);
    expect(new URL(page.url()).pathname).toBe(`/${DEMO_EVENT}/manual`);

    const grid = page.getByTestId('manual-photos');
    const cards = grid.getByTestId('photo-card');
    await expect.poll(() => cards.count()).toBeGreaterThan(0);
    expect(bodies[0]).toEqual({ event_key: DEMO_EVENT, page: 1, page_size: 18 });

    // Shown in the server's order (the order taken), the whole event on this first page.
    const token = await clientToken(page);
    const listed = (await (
      await fetch(new URL('/v1/manual', page.url()), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ event_key: DEMO_EVENT }),
      })
    ).json()) as { body: { id: number }[]; total: number; photographers: { photographer_id: number }[] };
    const shown = await cards.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-photo-id'))));
    expect(shown).toEqual(listed.body.map((p) => p.id));
    expect(await page.getByTestId('manual-total').textContent()).toContain(String(listed.total));
    expect(await grid.getByTestId('taken-at').count()).toBe(shown.length);

    // A photographer of the event: the same photos, asked for with the filter.
    const photographer = listed.photographers[0]?.photographer_id ?? 0;
    await page.getByTestId('photographer-filter').selectOption(String(photographer));
    await expect.poll(() => bodies.at(-1)?.photographer_id).toBe(photographer);
    await expect.poll(() => cards.count()).toBeGreaterThan(0);

    // A window of time no photo was taken in: nothing listed.
    await page.getByTestId('from-filter').fill('2099-12-31T23:00');
    await expect.poll(() => bodies.at(-1)?.from).toBe('2099-12-31T23:00');
    await expect.poll(() => page.getByTestId('manual-empty').isVisible()).toBe(true);
    await page.getByTestId('clear-filters').click();
    // Cleared, the page shows the first listing again (from the cache, or asked anew).
    await expect.poll(() => cards.count()).toBe(shown.length);

    await cards.nth(1).getByTestId('add-to-cart').click();
    await expect.poll(() => cards.nth(1).getByTestId('remove-from-cart').isVisible()).toBe(true);
    const cart = await readCart(page);
    expect(cart.map((i) => [i.id, i.event_key])).toEqual([[shown[1], DEMO_EVENT]]);
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('1');
    await screenshot(page, 'manual-search');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(g) at 375×812 the home, event, cart and order pages never scroll sideways', async () => {
    expect(bought.uuid).not.toBe('');
    const context = await openContext(browser, { width: 375, height: 812 });
    const { page } = await newPage(context);
    await page.addInitScript((k) => localStorage.setItem(`consent_${k}`, 'Y'), DEMO_EVENT);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

    await page.goto('/');
    await expect.poll(() => page.getByTestId('event-card').count()).toBeGreaterThan(0);
    await screenshot(page, 'mobile-home');
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.goto(`/${DEMO_EVENT}`);
    await searchSelfie(page);
    const cards = page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBe(3);
    await cards.nth(2).getByTestId('add-to-cart').click();
    await screenshot(page, 'mobile-event');
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.goto('/cart');
    await expect.poll(() => page.getByTestId('cart-final-payment').isVisible()).toBe(true);
    await screenshot(page, 'mobile-cart');
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.goto(`/download/${bought.uuid}`);
    await expect.poll(() => page.getByTestId('order-status').getAttribute('data-status')).toBe('PAID');
    await screenshot(page, 'mobile-order');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('(j) searches the demo event for two people: any of them, then both together', async () => {
    const context = await openContext(browser);
    const { page, errors } = await newPage(context);
    await page.goto(`/${DEMO_EVENT}`);
    await acceptConsent(page);

    await page.getByTestId('add-friend').click();
    await page.getByTestId('group-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
    await page.getByTestId('group-input').setInputFiles(join(photosDir(), 'gdp.jpg'));
    const chips = page.getByTestId('selfie-chip');
    await expect.poll(() => chips.count()).toBe(2);
    expect(await chips.allTextContents()).toEqual(['ฉัน×', 'เพื่อน 1×']);
    await page.getByTestId('group-search').click();

    const cards = page.getByTestId('search-results').getByTestId('photo-card');
    // At least player 13's three photos.
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const people = async () =>
      cards.evaluateAll((els) =>
        els.map((e) =>
          Array.from(e.querySelectorAll('[data-testid="person-chip"]')).map((c) => Number(c.getAttribute('data-person'))),
        ),
      );
    const any = await people();
    expect(any.every((p) => p.length > 0)).toBe(true);
    expect(any.some((p) => p.includes(0))).toBe(true);
    await screenshot(page, 'group-search');

    // All of us together: only photos showing both, or the notice that none does.
    await page.getByTestId('match-all').check();
    await page.getByTestId('group-search').click();
    await expect
      .poll(async () => (await page.getByTestId('search-not-found').isVisible()) || (await page.getByTestId('search-count').isVisible()), {
        timeout: 60_000,
      })
      .toBe(true);
    const together = any.filter((p) => p.includes(0) && p.includes(1)).length;
    if (together === 0) {
      await expect.poll(() => page.getByTestId('search-not-found-all').isVisible()).toBe(true);
    } else {
      await expect.poll(() => cards.count()).toBe(together);
      expect((await people()).every((p) => p.includes(0) && p.includes(1))).toBe(true);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(k) asks to hide player 13’s photos, once per face; approved in the console, the search no longer finds him', async () => {
    // Its own event: approving hides his photos for good, which the other scenarios (and
    // the other suites on this server) still search for on the demo event.
    const event = 'hide-run';
    const context = await openContext(browser);
    const admin = await consoleWithEvent(context, event, 'Hide Run 2026');
    await admin.goto(`/admin/events/${event}/photos`);
    await admin.getByTestId('photo-input').setInputFiles(join(photosDir(), 'players.jpg'));
    const ready = admin.locator('[data-testid="admin-photo"][data-state="ready"]');
    await expect.poll(() => ready.count(), { timeout: 180_000, interval: 1000 }).toBe(1);

    const { page, errors } = await newPage(context);
    await page.goto(`/${event}`);
    await acceptConsent(page);
    await searchSelfie(page);
    const cards = page.getByTestId('search-results').getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBe(1);

    // The request, from the link on the event page.
    await page.getByTestId('hide-link').click();
    await page.waitForURL(`**/${event}/hide-my-photos`);
    const ask = async () => {
      await page.getByTestId('hide-contact').fill('0898765432');
      await page.getByTestId('hide-file').setInputFiles(join(photosDir(), 'yaoming.jpg'));
      await page.getByTestId('hide-consent').check();
      await page.getByTestId('hide-submit').click();
    };
    await ask();
    await expect.poll(() => page.getByTestId('hide-request-id').textContent(), { timeout: 60_000 }).toMatch(/\S/);
    await screenshot(page, 'hide-my-photos');
    await page.reload();
    await ask();
    await expect
      .poll(() => page.getByTestId('hide-file-error').textContent(), { timeout: 60_000 })
      .toContain('มีคำขอซ่อนรูปของใบหน้านี้ในอีเวนต์นี้อยู่แล้ว');

    // The operator sees the photo it would hide and approves.
    await admin.goto('/admin/privacy');
    const request = admin.getByTestId('privacy-request').filter({ hasText: event });
    await expect.poll(() => request.count()).toBe(1);
    await expect.poll(() => request.getByTestId('privacy-photo').count()).toBe(1);
    await request.getByTestId('privacy-approve').click();
    await admin.getByRole('dialog').getByRole('button', { name: 'อนุมัติ', exact: true }).click();
    await expect.poll(() => request.count()).toBe(0);
    await admin.getByTestId('privacy-tab-approved').click();
    await expect.poll(() => admin.getByTestId('privacy-request').filter({ hasText: event }).count()).toBe(1);

    // His face no longer finds the photo.
    await page.goto(`/${event}`);
    await searchSelfie(page);
    await expect.poll(() => page.getByTestId('search-not-found').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('(l) tells a runner on LINE when a photo of him arrives; the link shows it, and stop deletes the alert', async () => {
    const event = 'alert-run';
    const context = await openContext(browser);
    const admin = await consoleWithEvent(context, event, 'Alert Run 2026');

    // No photo of him yet: he asks to be told, by LINE, with the selfie just searched with.
    const { page, errors } = await newPage(context);
    await page.goto(`/${event}`);
    await acceptConsent(page);
    await searchSelfie(page);
    await expect.poll(() => page.getByTestId('search-not-found').isVisible(), { timeout: 60_000 }).toBe(true);
    await page.getByTestId('alert-open').click();
    await page.getByTestId('alert-channel-line').click();
    // Its own consent: nothing is asked for until it is given.
    expect(await page.getByTestId('alert-submit').isDisabled()).toBe(true);
    await page.getByTestId('alert-consent').check();
    await screenshot(page, 'alert-offer');
    await page.getByTestId('alert-submit').click();
    await page.waitForURL(`**/${event}?alert=linked`);
    await expect.poll(() => page.getByTestId('alert-outcome').getAttribute('data-outcome')).toBe('linked');

    // A photographer's photo of him arrives: LINE gets the news, with a link to it.
    type Pushed = { to: string; messages: { altText: string; contents: { footer: { contents: { action: { uri: string } }[] } } }[] };
    const pushed = async () => (await (await fetch(`${inject('lineUrl')}/_pushed`)).json()) as Pushed[];
    const before = (await pushed()).length;
    await admin.goto(`/admin/events/${event}/photos`);
    await admin.getByTestId('photo-input').setInputFiles(join(photosDir(), 'players.jpg'));
    const ready = admin.locator('[data-testid="admin-photo"][data-state="ready"]');
    await expect.poll(() => ready.count(), { timeout: 180_000, interval: 1000 }).toBe(1);
    await expect.poll(async () => (await pushed()).length, { timeout: 60_000 }).toBe(before + 1);
    const news = (await pushed())[before]!.messages[0]!;
    expect(news.altText).toContain('new photo');
    const link = news.contents.footer.contents[0]!.action.uri;
    expect(link).toContain('/alerts/');

    // The link shows the photo, no selfie asked; "stop" deletes the alert and its face.
    await page.goto(link);
    const cards = page.getByTestId('alert-photos').getByTestId('photo-card');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(1);
    await screenshot(page, 'alert-page');
    await page.getByTestId('alert-stop').click();
    await expect.poll(() => page.getByTestId('alert-stopped').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('alert-ended').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await context.close();
  });

  it('unknown addresses open the app, which shows its 404 page', async () => {
    const context = await openContext(browser);
    const { page } = await newPage(context);
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.getByTestId('not-found').isVisible()).toBe(true);
    await page.goto('/no-such-event');
    await page.waitForURL('**/404');
    await context.close();
  });
});
