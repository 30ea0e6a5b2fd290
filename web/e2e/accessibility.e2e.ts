//! axe-core's WCAG 2.0/2.1 A and AA rules on every page of the shop and of the console, as
//! the real server serves them, at a desktop width and on a 375 px phone: no violations.
//! (axe runs through CDP, which the page's CSP does not apply to.)

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, openContext, photosDir } from './browser';
import { ADMIN, DEMO_EVENT } from './fixtures';
import { axeViolations } from './measure';

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
];

/** Loads `path`, waits for `testId`, and returns axe's violations there. */
async function scan(page: Page, path: string | null, testId: string): Promise<string[]> {
  if (path !== null) await page.goto(path);
  await page.getByTestId(testId).first().waitFor({ state: 'visible' });
  // What loads after the first paint (pictures, lazy parts) is part of the page too.
  await page.waitForLoadState('networkidle');
  return axeViolations(page);
}

/** Every violation, labelled with where it was found. */
async function collect(found: string[], where: string, violations: Promise<string[]>) {
  for (const v of await violations) found.push(`${where}: ${v}`);
}

describe.each(WIDTHS)('accessibility at $width px', (viewport) => {
  it('the shop has no WCAG 2 A/AA violations', async () => {
    const context = await openContext(browser, viewport);
    const { page, errors } = await newPage(context);
    const found: string[] = [];

    await collect(found, 'home', scan(page, '/', 'event-card'));
    // A first visit to an event: its terms in a modal dialog; then the page itself.
    await collect(found, 'event, terms', scan(page, `/${DEMO_EVENT}`, 'consent-accept'));
    await page.getByTestId('consent-accept').click();
    await collect(found, 'event', scan(page, null, 'event-title'));
    await page.getByTestId('selfie-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
    await collect(found, 'event, searched', scan(page, null, 'photo-card'));
    await page.getByTestId('photo-card').nth(0).getByTestId('add-to-cart').click();
    await page.getByTestId('photo-card').nth(1).getByTestId('add-to-cart').click();
    await collect(found, 'cart', scan(page, '/cart', 'cart-item'));

    await page.goto(`/${DEMO_EVENT}/wholesale`);
    const wholesaleTerms = page.getByTestId('consent-accept');
    if (await wholesaleTerms.isVisible().catch(() => false)) await wholesaleTerms.click();
    await collect(found, 'wholesale', scan(page, null, 'event-title'));
    await page.getByTestId('selfie-input').setInputFiles(join(photosDir(), 'yaoming.jpg'));
    await collect(found, 'wholesale, searched', scan(page, null, 'photo-card'));
    // The wholesale deal: every photo found, in the wholesale cart.
    await page.getByTestId('buy-all').click();
    await page.waitForURL('**/cart-wholesale');
    await collect(found, 'wholesale cart', scan(page, null, 'cart-items'));

    // An order, to see its page (unpaid: the payment QR and the sample photos).
    await page.goto('/cart');
    await page.getByTestId('mobile-input').fill('0811111111');
    await page.getByTestId('payment-PP').check();
    await page.getByTestId('submit-order').click();
    await page.waitForURL('**/download/*');
    await collect(found, 'order', scan(page, null, 'payment-qr'));

    await collect(found, 'find-order', scan(page, '/find-order', 'find-input'));
    await page.getByTestId('filter-mobile').check();
    await page.getByTestId('find-input').fill('0811111111');
    await page.getByTestId('find-submit').click();
    await collect(found, 'find-order, found', scan(page, null, 'find-row'));
    await collect(found, 'QR', scan(page, `/${DEMO_EVENT}/qr`, 'qr-code'));
    for (const path of ['/how-to-order', '/about', '/terms-of-use', '/refund-policy', '/how-to-use']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor({ state: 'visible' });
      await collect(found, path, scan(page, null, 'cart-icon'));
    }
    await collect(found, '404', scan(page, '/no/such/page', 'not-found'));

    expect(found).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the console has no WCAG 2 A/AA violations', async () => {
    const context = await openContext(browser, viewport);
    const { page, errors } = await newPage(context);
    const found: string[] = [];

    await collect(found, 'sign-in', scan(page, '/admin/login', 'login-email'));
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await collect(found, 'dashboard', scan(page, null, 'dashboard'));
    await collect(found, 'events', scan(page, '/admin/events', 'admin-event-row'));
    await collect(found, 'new event', scan(page, '/admin/events/new', 'field-event_key'));
    await collect(found, 'event form', scan(page, `/admin/events/${DEMO_EVENT}/edit`, 'field-title'));
    await collect(found, 'uploads', scan(page, `/admin/events/${DEMO_EVENT}/photos`, 'admin-photo'));
    await collect(found, 'orders', scan(page, '/admin/orders', 'admin-root'));
    await collect(found, 'settings', scan(page, '/admin/settings', 'admin-root'));
    await collect(found, 'audit', scan(page, '/admin/audit', 'admin-root'));

    expect(found).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
