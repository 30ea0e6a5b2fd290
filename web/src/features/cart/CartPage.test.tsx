//! Both carts against a fake API: the empty state, the server's totals shown as quoted,
//! removal and re-quoting, the mixed-event lock, the forms' checks, the gateway lookup and
//! the channels it takes, order creation (v1 and v3), its failure, the free form, a photo
//! pass (checked by the server before it applies, what it covers, a FREE order with it), the
//! all-photos toggle with each cart's own flag, and the finisher certificate the standard cart
//! buys (alone or with photos: quoted, ordered, removed, refused by a pass).

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody, QuoteResponse } from '@/api/types';
import { makeEvent as baseEvent } from '@/test/fixtures';
import {
  addToCart,
  readCart,
  readCartCertificate,
  readDeal,
  setCartCertificate,
  setDeal,
  type CartItem,
  type CartKind,
} from '@/lib/cart';
import { writeRaw } from '@/lib/storage';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { CartPage, WholesaleCartPage } from './CartPage';

/** The events feature's event as the cart knows it: sold wholesale too, with both deal prices. */
function makeEvent(extra: Partial<EventBody> = {}): EventBody {
  return baseEvent({
    event_key: 'bkk-run',
    title: 'Bangkok Night Run',
    is_hybrid: 'Y',
    hybrid_mhao_price: 1500,
    mhao_price: 999,
    package: [
      { name: 'รูปเดี่ยว', name_en: 'Single photo', number_of_photo: 1, price: 120 },
      { name: 'แพ็ก 5 รูป', name_en: 'Pack of 5', number_of_photo: 5, price: 450 },
    ],
    package_hb: [{ name: 'เหมาเริ่มต้น', name_en: 'Wholesale starter', number_of_photo: 1, price: 80 }],
    ...extra,
  });
}

function photo(id: number, eventKey = 'bkk-run'): CartItem {
  return {
    id,
    original_file_name: `IMG_${id}.jpg`,
    thumbnail_file_name: `t_${id}.jpg`,
    preview_file_name: `p_${id}.jpg`,
    photographer_id: 3,
    event_id: 7,
    atc: 'Y',
    thumbnail_url: `https://img.example/t_${id}.jpg`,
    preview_url: `https://img.example/p_${id}.jpg`,
    event_key: eventKey,
  };
}

function makeQuote(extra: Partial<QuoteResponse> = {}): QuoteResponse {
  return {
    status: 'success',
    total: 2,
    cart_full_amt: 1240,
    cart_full_amt_no_pomo: 1240,
    cart_discount: 117.5,
    cart_amt: 1122.5,
    cart_payment_fee: 56.13,
    cart_final_payment: 1178.63,
    amount: 1122.5,
    paid_amount: 1178.63,
    ...extra,
  };
}

type Answers = Parameters<typeof fakeFetch>[0];

/** `/v1/utils/conf` as the server answers it for a gateway: its name and the channels it takes. */
function conf(gateway: string, channels: string) {
  return (body: unknown) => {
    const name = (body as { conf_name: string }).conf_name;
    return { status: 'success', body: { value: name === 'PAYMENT_CHANNELS' ? channels : gateway } };
  };
}

function api(extra: Answers = {}, event: EventBody = makeEvent()) {
  return fakeFetch({
    'GET /v1/events/bkk-run': { status: 'success', ...event },
    'POST /api/cart/quote': makeQuote(),
    'POST /v1/utils/conf': conf('SANDBOX', 'PP,CC'),
    'POST /v1/order/create': { status: 'success', uuid: 'order-uuid-1' },
    'POST /v1/logs/': { status: 'success' },
    ...extra,
  });
}

function renderCart(kind: CartKind = 'standard') {
  const path = kind === 'standard' ? '/cart' : '/cart-wholesale';
  return renderWithProviders(kind === 'standard' ? <CartPage /> : <WholesaleCartPage />, {
    path,
    route: path,
    routes: [
      { path: '/download/:uuid', element: <p data-testid="order-page">order</p> },
      { path: '/', element: <p data-testid="home-page">home</p> },
    ],
  });
}

const callsTo = (calls: { key: string; body: unknown }[], key: string) => calls.filter((c) => c.key === key);

async function fillPaidForm(mobile: string, channel: 'PP' | 'CC' | 'AM' | null = 'PP', email = '') {
  const user = userEvent.setup();
  await user.type(await screen.findByTestId('mobile-input'), mobile);
  if (email) await user.type(screen.getByTestId('email-input'), email);
  // The card option comes with the gateway's channel list, maybe after the form.
  if (channel) await user.click(await screen.findByTestId(`payment-${channel}`));
  return user;
}

describe('empty cart', () => {
  it('says so and offers to search again from the home page', async () => {
    const { calls } = api();
    renderCart();
    const empty = screen.getByTestId('cart-empty');
    expect(within(empty).getByText('ยังไม่มีรูปในตะกร้า')).toBeInTheDocument();
    expect(within(empty).getByRole('link', { name: 'ค้นหารูปอีกครั้ง' })).toHaveAttribute('href', '/');
    expect(screen.getByTestId('find-order-link')).toHaveAttribute('href', '/find-order');
    expect(screen.queryByTestId('cart-items')).not.toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(callsTo(calls, 'POST /api/cart/quote')).toHaveLength(0);
  });

  it('reads the wholesale cart from its own storage key', () => {
    api();
    addToCart('standard', [photo(1)]);
    renderCart('wholesale');
    expect(screen.getByTestId('cart-empty')).toBeInTheDocument();
  });
});

describe('standard cart', () => {
  it('shows the event, its packages, the photos and exactly the quoted totals', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    const { calls } = api();
    renderCart();

    expect(await screen.findByTestId('cart-event-title')).toHaveTextContent('Bangkok Night Run');
    const packages = screen.getByTestId('cart-packages');
    expect(within(packages).getByText('แพ็ก 5 รูป')).toBeInTheDocument();
    expect(within(packages).getByText('450.00 บาท')).toBeInTheDocument();
    expect(screen.getAllByTestId('cart-item')).toHaveLength(2);
    expect(screen.getByTestId('cart-items')).toHaveStyle({ maxHeight: '500px' });
    expect(screen.getByTestId('add-more')).toHaveAttribute('href', '/bkk-run');

    expect(await screen.findByTestId('cart-full-amt')).toHaveTextContent('1,240.00');
    expect(screen.getByTestId('cart-count-total')).toHaveTextContent('2');
    expect(screen.getByTestId('cart-discount')).toHaveTextContent('117.50');
    expect(screen.getByTestId('cart-amt')).toHaveTextContent('1,122.50');
    expect(screen.getByTestId('cart-fee')).toHaveTextContent('56.13');
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('1,178.63');

    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toEqual({
      event_key: 'bkk-run',
      image_ids: [1, 2],
      is_mhao: 'N',
      wholesale: false,
    });
    // Paid form with PromptPay and card only.
    expect(screen.getByTestId('payment-PP')).toBeInTheDocument();
    expect(await screen.findByTestId('payment-CC')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-AM')).not.toBeInTheDocument();
    expect(screen.getByTestId('mobile-input')).toHaveAttribute('inputmode', 'numeric');
  });

  it('shows package names in English when English is chosen', async () => {
    window.localStorage.setItem('currentLanguage', 'en');
    addToCart('standard', [photo(1)]);
    api();
    renderCart();
    expect(await screen.findByText('Pack of 5')).toBeInTheDocument();
    expect(screen.getByText('Remove all')).toBeInTheDocument();
  });

  it('removes a photo from storage and asks for a new price', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    const { calls } = api({
      'POST /api/cart/quote': (body: unknown) => {
        const ids = (body as { image_ids: number[] }).image_ids;
        return makeQuote({ total: ids.length, cart_full_amt: ids.length * 120 });
      },
    });
    renderCart();
    expect(await screen.findByTestId('cart-full-amt')).toHaveTextContent('240.00');

    const user = userEvent.setup();
    await user.click(screen.getAllByTestId('cart-remove')[0]!);

    expect(readCart('standard').map((i) => i.id)).toEqual([2]);
    expect(screen.getAllByTestId('cart-item')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('cart-full-amt')).toHaveTextContent('120.00'));
    expect(screen.getByTestId('cart-count-total')).toHaveTextContent('1');
    const quotes = callsTo(calls, 'POST /api/cart/quote');
    expect(quotes.at(-1)?.body).toMatchObject({ image_ids: [2] });
    await waitFor(() =>
      expect(callsTo(calls, 'POST /v1/logs/')[0]?.body).toEqual({
        service: 'cart',
        cart_count: 1,
        image_id: 1,
        list: '2',
        event_key: 'bkk-run',
      }),
    );
  });

  it('removes everything after confirmation only', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    setDeal('standard', 'YES');
    api();
    renderCart();
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('remove-all'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'ยกเลิก' }));
    expect(readCart('standard')).toHaveLength(2);

    await user.click(screen.getByTestId('remove-all'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'ลบทั้งหมด' }));
    expect(readCart('standard')).toHaveLength(0);
    expect(readDeal('standard')).toBe('NO');
    expect(await screen.findByTestId('cart-empty')).toBeInTheDocument();
  });

  it('locks ordering when photos come from more than one event', async () => {
    addToCart('standard', [photo(1), photo(2, 'other-run')]);
    const { calls } = api();
    renderCart();
    expect(screen.getByTestId('mixed-events-warning')).toHaveTextContent('กรุณาเลือกรูปจากอีเวนต์เดียวเท่านั้น');
    expect(screen.getAllByTestId('cart-item')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 30));
    expect(screen.queryByTestId('submit-order')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cart-full-amt')).not.toBeInTheDocument();
    expect(screen.queryByTestId('mobile-input')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')).toHaveLength(0);
    expect(screen.getByTestId('add-more')).toHaveAttribute('href', '/');
  });

  it('toggles the all-photos deal where the event offers it and re-quotes', async () => {
    // Two photos one search found, one from another search, one from no search at all.
    const searched = '0123456789abcdef0123456789abcdef';
    const other = 'fedcba9876543210fedcba9876543210';
    addToCart('standard', [
      { ...photo(1), found_ref: searched },
      { ...photo(2), found_ref: searched },
      { ...photo(3), found_ref: other },
      photo(4),
    ]);
    const { calls } = api({}, makeEvent({ is_mhao: 'Y' }));
    renderCart();
    const user = userEvent.setup();
    expect(await screen.findByText('ซื้อเหมาทุกรูปในราคา 999.00 บาท')).toBeInTheDocument();

    await user.click(screen.getByTestId('deal-select'));
    expect(readDeal('standard')).toBe('YES');
    expect(await screen.findByTestId('deal-cancel')).toBeInTheDocument();
    // The deal names the searches the photos came from, each once.
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/cart/quote').at(-1)?.body).toMatchObject({
        is_mhao: 'Y',
        found_refs: [searched, other],
      }),
    );

    await user.click(screen.getByTestId('deal-cancel'));
    expect(readDeal('standard')).toBe('NO');
    expect(await screen.findByTestId('deal-select')).toBeInTheDocument();
  });

  it('hides the deal toggle and never asks for the deal where the event has none', async () => {
    addToCart('standard', [photo(1)]);
    setDeal('standard', 'YES');
    const { calls } = api();
    renderCart();
    await screen.findByTestId('cart-full-amt');
    expect(screen.queryByTestId('deal-select')).not.toBeInTheDocument();
    expect(screen.queryByTestId('deal-cancel')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toMatchObject({ is_mhao: 'N' });
  });
});

describe('order form checks', () => {
  it('refuses a 4-digit mobile on the standard form and sends nothing', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api();
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('1234');
    await user.click(screen.getByTestId('submit-order'));
    expect(screen.getByTestId('mobile-error')).toHaveTextContent('เบอร์มือถือต้องมี 5 ถึง 15 หลัก');
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);
  });

  it('refuses letters in the standard mobile and translates the message', async () => {
    addToCart('standard', [photo(1)]);
    api();
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('08123abc');
    await user.click(screen.getByTestId('submit-order'));
    expect(screen.getByTestId('mobile-error')).toHaveTextContent('กรุณากรอกเฉพาะตัวเลข');
    act(() => writeRaw('currentLanguage', 'en'));
    expect(screen.getByTestId('mobile-error')).toHaveTextContent('Please enter digits only.');
  });

  it('requires a mobile and a payment method', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api();
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('submit-order'));
    expect(screen.getByTestId('mobile-error')).toHaveTextContent('กรุณากรอกเบอร์มือถือ');
    expect(screen.getByTestId('payment-error')).toHaveTextContent('กรุณาเลือกช่องทางการชำระเงิน');
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);

    // The messages follow the fields once they are corrected.
    await user.type(screen.getByTestId('mobile-input'), '0812345678');
    await user.click(await screen.findByTestId('payment-CC'));
    expect(screen.queryByTestId('mobile-error')).not.toBeInTheDocument();
    expect(screen.queryByTestId('payment-error')).not.toBeInTheDocument();
  });

  it('refuses a malformed e-mail', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api();
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678', 'PP', 'runner@example');
    await user.click(screen.getByTestId('submit-order'));
    expect(screen.getByTestId('email-error')).toHaveTextContent('รูปแบบอีเมลไม่ถูกต้อง');
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);
  });

  it('alerts and creates nothing when the payment gateway setting is empty', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api({ 'POST /v1/utils/conf': conf('', '') });
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678');
    await user.click(screen.getByTestId('submit-order'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('เกิดข้อผิดพลาด กรุณาแจ้งผู้ดูแลระบบ');
    expect(callsTo(calls, 'POST /v1/utils/conf').map((c) => c.body)).toContainEqual({ conf_name: 'PAYMENT_GATEWAY' });
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);
    expect(callsTo(calls, 'POST /v3/order/create')).toHaveLength(0);
    expect(readCart('standard')).toHaveLength(1);
  });
});

describe('order creation', () => {
  it('posts the cart to /v1/order/create, clears the cart and opens the order', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    setDeal('standard', 'YES');
    const { calls } = api();
    const { router } = renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678', 'CC', ' runner@example.com ');
    await user.click(screen.getByTestId('submit-order'));

    expect(await screen.findByTestId('order-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/download/order-uuid-1');
    const created = callsTo(calls, 'POST /v1/order/create');
    expect(created).toHaveLength(1);
    expect(created[0]?.body).toEqual({
      mobile: '0812345678',
      email: 'runner@example.com',
      event_key: 'bkk-run',
      amount: 1122.5,
      paid_amount: 1178.63,
      imageList: [{ id: photo(1).id }, { id: photo(2).id }],
      image_length: 2,
      is_mhao: 'N',
      payment_gateway: 'SANDBOX',
      payment_channel: 'CC',
      wholesale: false,
    });
    expect(readCart('standard')).toHaveLength(0);
    expect(readDeal('standard')).toBe('NO');
    expect(screen.getByText('สร้างคำสั่งซื้อสำเร็จ เลขที่ order-uuid-1')).toBeInTheDocument();
    // This device keeps the order, the way back to it when its link is lost.
    const kept = JSON.parse(window.localStorage.getItem('my_orders') ?? '[]') as { uuid: string; event_key: string }[];
    expect(kept.map((o) => [o.uuid, o.event_key])).toEqual([['order-uuid-1', 'bkk-run']]);
  });

  it('uses /v3/order/create when the gateway is OPN, with a null e-mail when none is given', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api({
      'POST /v1/utils/conf': conf('OPN', 'PP,CC'),
      'POST /v3/order/create': { status: 'success', uuid: 'opn-uuid' },
    });
    const { router } = renderCart();
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678', 'PP');
    await user.click(screen.getByTestId('submit-order'));

    await screen.findByTestId('order-page');
    expect(router.state.location.pathname).toBe('/download/opn-uuid');
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);
    expect(callsTo(calls, 'POST /v3/order/create')[0]?.body).toMatchObject({
      email: null,
      payment_gateway: 'OPN',
      payment_channel: 'PP',
    });
  });

  it('disables the button while creating, then reports a failure, re-quotes and re-enables', async () => {
    addToCart('standard', [photo(1)]);
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { calls, fn } = api({
      'POST /v1/order/create': errorAnswer(409, 'amount_mismatch', { body: { message: 'quote again' } }),
    });
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url).pathname === '/v1/order/create') await gate;
      return fn(input);
    });
    renderCart();
    await screen.findByTestId('cart-full-amt');
    const quotesBefore = callsTo(calls, 'POST /api/cart/quote').length;
    const user = await fillPaidForm('0812345678');
    await user.click(screen.getByTestId('submit-order'));

    await waitFor(() => expect(screen.getByTestId('submit-order')).toBeDisabled());
    expect(screen.getByTestId('submit-order')).toHaveTextContent('กำลังสร้างคำสั่งซื้อ...');
    release();

    const toast = await screen.findByText(/สร้างคำสั่งซื้อไม่สำเร็จ/);
    expect(toast).toHaveTextContent('ราคามีการเปลี่ยนแปลง กรุณาตรวจสอบยอดอีกครั้ง');
    await waitFor(() => expect(callsTo(calls, 'POST /api/cart/quote').length).toBeGreaterThan(quotesBefore));
    await waitFor(() => expect(screen.getByTestId('submit-order')).toBeEnabled());
    expect(readCart('standard')).toHaveLength(1);
    expect(screen.getByTestId('mobile-input')).toHaveValue('0812345678');
  });
});

/** A quote with nothing to pay. */
const nothingToPay = (extra: Partial<QuoteResponse> = {}) =>
  makeQuote({ cart_amt: 0, cart_payment_fee: 0, cart_final_payment: 0, amount: 0, paid_amount: 0, ...extra });

describe('free form', () => {
  const freeQuote = nothingToPay({ cart_full_amt: 0, cart_discount: 0 });

  it('appears for a keep-contract event with nothing to pay and creates a FREE order', async () => {
    addToCart('standard', [photo(1)]);
    const { calls } = api(
      { 'POST /api/cart/quote': freeQuote },
      makeEvent({ is_free_download_keep_contract: 'Y' }),
    );
    renderCart();
    await screen.findByTestId('free-form');
    expect(screen.queryByTestId('paid-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('payment-PP')).not.toBeInTheDocument();
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('0.00');

    const user = userEvent.setup();
    // Non-digits are dropped as they are typed on this form.
    await user.type(screen.getByTestId('mobile-input'), '081-234-5678');
    expect(screen.getByTestId('mobile-input')).toHaveValue('0812345678');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(callsTo(calls, 'POST /v1/order/create')[0]?.body).toMatchObject({
      payment_channel: 'FREE',
      amount: 0,
      paid_amount: 0,
    });
  });

  it('does not appear when the event is not keep-contract', async () => {
    addToCart('standard', [photo(1)]);
    api({ 'POST /api/cart/quote': freeQuote }, makeEvent({ is_free_download: 'Y' }));
    renderCart();
    await screen.findByTestId('cart-final-payment');
    expect(screen.queryByTestId('free-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('paid-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('submit-order')).not.toBeInTheDocument();
  });

  it('gives way to the paid form when a keep-contract cart costs something', async () => {
    addToCart('standard', [photo(1)]);
    api({}, makeEvent({ is_free_download_keep_contract: 'Y' }));
    renderCart();
    expect(await screen.findByTestId('paid-form')).toBeInTheDocument();
    expect(screen.queryByTestId('free-form')).not.toBeInTheDocument();
  });
});

describe('photo pass', () => {
  const paidByPass = nothingToPay({ cart_discount: 1240, pass: { photos: 3, pays: true, reason: null } });
  // The server's answers: with the right code the cart is paid by the pass; any other code
  // is no pass of the event.
  const quote = (body: unknown) => {
    const code = (body as { pass_code?: string }).pass_code;
    if (code === undefined) return makeQuote();
    return code === 'k7qm-4xtp-9hwa' ? paidByPass : errorAnswer(422, 'pass_not_found')();
  };

  it('applies a code the server knows, says it pays, and creates a FREE order with it', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    const { calls } = api({ 'POST /api/cart/quote': quote });
    renderCart();
    const user = userEvent.setup();
    await screen.findByTestId('paid-form');

    // An empty code is not sent; a wrong one is refused with the server's reason.
    await user.click(screen.getByTestId('pass-apply'));
    expect(screen.getByTestId('pass-error')).toHaveTextContent('กรุณากรอกรหัสพาส');
    await user.type(screen.getByTestId('pass-input'), 'AAAA-AAAA-AAAA');
    await user.click(screen.getByTestId('pass-apply'));
    expect(await screen.findByTestId('pass-error')).toHaveTextContent('ไม่พบรหัสพาสนี้ในอีเวนต์นี้');
    expect(screen.getByTestId('paid-form')).toBeInTheDocument();

    await user.clear(screen.getByTestId('pass-input'));
    await user.type(screen.getByTestId('pass-input'), 'k7qm-4xtp-9hwa');
    await user.click(screen.getByTestId('pass-apply'));
    expect(await screen.findByTestId('pass-pays')).toHaveTextContent('ไม่ต้องชำระเงิน');
    expect(screen.getByTestId('pass-cover')).toHaveTextContent('พาส K7QM-4XTP-9HWA ใช้รับรูปได้ 3 รูป');
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('0.00');
    expect(await screen.findByTestId('free-form')).toHaveTextContent('รับรูปด้วยพาส');
    expect(screen.queryByTestId('payment-PP')).not.toBeInTheDocument();

    await user.type(screen.getByTestId('mobile-input'), '0812345678');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(callsTo(calls, 'POST /v1/order/create')[0]?.body).toMatchObject({
      payment_channel: 'FREE',
      amount: 0,
      paid_amount: 0,
      pass_code: 'k7qm-4xtp-9hwa',
      found_refs: [],
    });
    expect(readCart('standard')).toEqual([]);
  });

  it('says what to change when the pass does not cover the cart, and can be removed', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    const short = makeQuote({ pass: { photos: 1, pays: false, reason: 'too_many_photos' } });
    const { calls } = api({
      'POST /api/cart/quote': (body: unknown) => ((body as { pass_code?: string }).pass_code ? short : makeQuote()),
    });
    renderCart();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('pass-input'), 'K7QM4XTP9HWA');
    await user.click(screen.getByTestId('pass-apply'));
    expect(await screen.findByTestId('pass-shortfall')).toHaveTextContent('ลบรูปออกให้เหลือไม่เกิน 1 รูป');
    expect(screen.getByTestId('paid-form')).toBeInTheDocument();
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('1,178.63');

    await user.click(screen.getByTestId('pass-remove'));
    expect(await screen.findByTestId('pass-form')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(calls, 'POST /api/cart/quote').at(-1)?.body).not.toHaveProperty('pass_code'));
  });

  it('is not offered in the wholesale cart', async () => {
    addToCart('wholesale', [photo(1)]);
    api();
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    expect(screen.queryByTestId('pass-form')).not.toBeInTheDocument();
  });
});

describe('wholesale cart', () => {
  it('quotes as wholesale, shows wholesale packages and no per-photo removal', async () => {
    addToCart('wholesale', [photo(1), photo(2)]);
    const { calls } = api({}, makeEvent({ is_mhao_hybrid: 'Y' }));
    renderCart('wholesale');
    expect(await screen.findByText('เหมาเริ่มต้น')).toBeInTheDocument();
    expect(screen.queryByText('แพ็ก 5 รูป')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('cart-item')).toHaveLength(2);
    expect(screen.queryByTestId('cart-remove')).not.toBeInTheDocument();
    expect(screen.getByText('ซื้อเหมาทุกรูปในราคา 1,500.00 บาท')).toBeInTheDocument();
    await screen.findByTestId('cart-full-amt');
    expect(screen.getByTestId('payment-AM')).toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toMatchObject({ wholesale: true, is_mhao: 'N' });
  });

  it('strips non-digits and refuses a 9-digit mobile', async () => {
    addToCart('wholesale', [photo(1)]);
    const { calls } = api();
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('081-234-567', 'PP');
    expect(screen.getByTestId('mobile-input')).toHaveValue('081234567');
    await user.click(screen.getByTestId('submit-order'));
    expect(screen.getByTestId('mobile-error')).toHaveTextContent('เบอร์มือถือต้องมี 10 หลัก');
    expect(callsTo(calls, 'POST /v1/order/create')).toHaveLength(0);
  });

  it('creates an approval (AM) order flagged wholesale and clears only the wholesale cart', async () => {
    addToCart('wholesale', [photo(1)]);
    addToCart('standard', [photo(5)]);
    const { calls } = api();
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678', 'AM');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(callsTo(calls, 'POST /v1/order/create')[0]?.body).toMatchObject({
      payment_channel: 'AM',
      wholesale: true,
      image_length: 1,
    });
    expect(readCart('wholesale')).toHaveLength(0);
    expect(readCart('standard')).toHaveLength(1);
  });
});

describe('payment channels', () => {
  /** Lets every answer already given reach the page. */
  const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 30)));

  async function channelsAsked(calls: { key: string; body: unknown }[]) {
    await waitFor(() =>
      expect(callsTo(calls, 'POST /v1/utils/conf').map((c) => c.body)).toContainEqual({ conf_name: 'PAYMENT_CHANNELS' }),
    );
    await settle();
  }

  it.each(['GBP', 'PROMPTPAY'])('offers no card in the standard cart when %s takes PromptPay only', async (gateway) => {
    addToCart('standard', [photo(1)]);
    const { calls } = api({ 'POST /v1/utils/conf': conf(gateway, 'PP') });
    renderCart();
    await screen.findByTestId('cart-full-amt');
    await channelsAsked(calls);
    expect(screen.getByTestId('payment-PP')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-CC')).not.toBeInTheDocument();

    const user = await fillPaidForm('0812345678', 'PP');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(callsTo(calls, 'POST /v1/order/create')[0]?.body).toMatchObject({
      payment_gateway: gateway,
      payment_channel: 'PP',
    });
  });

  it('offers PromptPay and approval but no card in the wholesale cart with GBP', async () => {
    addToCart('wholesale', [photo(1)]);
    const { calls } = api({ 'POST /v1/utils/conf': conf('GBP', 'PP') });
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    await channelsAsked(calls);
    expect(screen.getByTestId('payment-PP')).toBeInTheDocument();
    expect(screen.getByTestId('payment-AM')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-CC')).not.toBeInTheDocument();
  });

  it('offers the card in both carts when the gateway takes cards', async () => {
    addToCart('wholesale', [photo(1)]);
    api({ 'POST /v1/utils/conf': conf('OPN', 'PP,CC') });
    renderCart('wholesale');
    expect(await screen.findByTestId('payment-CC')).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['PP', 'CC', 'AM']);
  });

  it('does not offer the card while the channels are unknown', async () => {
    addToCart('standard', [photo(1)]);
    const { fn } = api();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url).pathname === '/v1/utils/conf') {
        const body = (await input.clone().json()) as { conf_name: string };
        if (body.conf_name === 'PAYMENT_CHANNELS') await gate;
      }
      return fn(input);
    });
    renderCart();
    await screen.findByTestId('cart-full-amt');
    await settle();
    expect(screen.getByTestId('payment-PP')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-CC')).not.toBeInTheDocument();
    release();
    expect(await screen.findByTestId('payment-CC')).toBeInTheDocument();
  });
});

describe('all-photos flag in storage', () => {
  it('stores the raw YES / NO of each cart under its own keys', async () => {
    addToCart('wholesale', [photo(1)]);
    setDeal('standard', 'NO');
    api({}, makeEvent({ is_mhao_hybrid: 'Y' }));
    renderCart('wholesale');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('deal-select'));
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('YES');
    expect(localStorage.getItem('_mhao_price_wholesale')).toBe('1500');
    // The standard cart's flag is another one: untouched.
    expect(localStorage.getItem('_event_can_mhao')).toBe('NO');
    expect(localStorage.getItem('_mhao_price')).toBeNull();
    expect(readDeal('standard')).toBe('NO');

    await user.click(await screen.findByTestId('deal-cancel'));
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('NO');
  });

  it('keeps the standard deal when a wholesale order is placed', async () => {
    addToCart('wholesale', [photo(1)]);
    setDeal('standard', 'YES', 999);
    api();
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    const user = await fillPaidForm('0812345678', 'PP');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(readDeal('wholesale')).toBe('NO');
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
    expect(localStorage.getItem('_mhao_price')).toBe('999');
  });

  it('reads a JSON-quoted flag left by an earlier version as its raw value', async () => {
    addToCart('standard', [photo(1)]);
    localStorage.setItem('_event_can_mhao', '"YES"');
    const { calls } = api({}, makeEvent({ is_mhao: 'Y' }));
    renderCart();
    expect(await screen.findByTestId('deal-cancel')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toMatchObject({ is_mhao: 'Y' }));
  });
});

describe('finisher certificate', () => {
  const somchai = { event_key: 'bkk-run', bib: '42', name: 'Somchai Jaidee' };
  /** The server's price of a certificate alone (49 baht, the fee on top). */
  const certificateQuote = makeQuote({
    total: 0,
    cart_full_amt: 49,
    cart_full_amt_no_pomo: 49,
    cart_discount: 0,
    cart_amt: 49,
    cart_payment_fee: 2.45,
    cart_final_payment: 51.45,
    cart_certificate_amt: 49,
    amount: 49,
    paid_amount: 51.45,
  });

  it('is a cart alone: quoted with its bib, shown at the quoted price, ordered without photos', async () => {
    window.localStorage.setItem('currentLanguage', 'en');
    setCartCertificate(somchai);
    const { calls } = api({ 'POST /api/cart/quote': certificateQuote }, makeEvent({ is_mhao: 'Y' }));
    const { router } = renderCart();

    const line = screen.getByTestId('cart-certificate');
    expect(line).toHaveTextContent('Finisher certificate · bib 42 · Somchai Jaidee');
    expect(screen.queryByTestId('cart-empty')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cart-items')).not.toBeInTheDocument();
    // Its event is the certificate's.
    expect(await screen.findByTestId('cart-event-title')).toHaveTextContent('Bangkok Night Run');
    expect(screen.getByTestId('add-more')).toHaveAttribute('href', '/bkk-run');
    expect(await screen.findByTestId('cart-certificate-price')).toHaveTextContent('49.00 THB');
    expect(screen.getByTestId('cart-certificate-amt')).toHaveTextContent('49.00');
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('51.45');
    // The all-photos deal is on photos: none to a cart without them.
    expect(screen.queryByTestId('deal-select')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toEqual({
      event_key: 'bkk-run',
      image_ids: [],
      is_mhao: 'N',
      wholesale: false,
      certificate_bib: '42',
    });

    const user = await fillPaidForm('0812345678', 'PP');
    await user.click(screen.getByTestId('submit-order'));
    await screen.findByTestId('order-page');
    expect(router.state.location.pathname).toBe('/download/order-uuid-1');
    expect(callsTo(calls, 'POST /v1/order/create')[0]?.body).toEqual({
      mobile: '0812345678',
      email: null,
      event_key: 'bkk-run',
      amount: 49,
      paid_amount: 51.45,
      imageList: [],
      image_length: 0,
      is_mhao: 'N',
      payment_gateway: 'SANDBOX',
      payment_channel: 'PP',
      wholesale: false,
      certificate_bib: '42',
    });
    expect(readCartCertificate()).toBeNull();
  });

  it('goes with the photos of its event, and its remove button takes it out alone', async () => {
    addToCart('standard', [photo(1), photo(2)]);
    setCartCertificate(somchai);
    const { calls } = api({
      'POST /api/cart/quote': (body: unknown) =>
        (body as { certificate_bib?: string }).certificate_bib === '42'
          ? makeQuote({ cart_certificate_amt: 49, cart_final_payment: 1230.08 })
          : makeQuote(),
    });
    renderCart();
    expect(screen.getByTestId('cart-certificate')).toHaveTextContent('ใบประกาศนียบัตรผู้พิชิต · บิบ 42 · Somchai Jaidee');
    expect(screen.getAllByTestId('cart-item')).toHaveLength(2);
    expect(await screen.findByTestId('cart-certificate-price')).toHaveTextContent('49.00 บาท');
    expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('1,230.08');
    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).toMatchObject({ image_ids: [1, 2], certificate_bib: '42' });

    const user = userEvent.setup();
    await user.click(screen.getByTestId('cart-certificate-remove'));
    expect(readCartCertificate()).toBeNull();
    expect(readCart('standard')).toHaveLength(2);
    expect(screen.queryByTestId('cart-certificate')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('cart-final-payment')).toHaveTextContent('1,178.63'));
    expect(screen.queryByTestId('cart-certificate-amt')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote').at(-1)?.body).not.toHaveProperty('certificate_bib');
  });

  it('empties the cart once removed when it was alone', async () => {
    setCartCertificate(somchai);
    api({ 'POST /api/cart/quote': certificateQuote });
    renderCart();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('cart-certificate-remove'));
    expect(await screen.findByTestId('cart-empty')).toBeInTheDocument();
  });

  it('is removed with everything else, after confirmation', async () => {
    addToCart('standard', [photo(1)]);
    setCartCertificate(somchai);
    api();
    renderCart();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('remove-all'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('รูปทั้งหมดและใบประกาศนียบัตรผู้พิชิตในตะกร้าจะถูกลบ');
    await user.click(within(dialog).getByRole('button', { name: 'ลบทั้งหมด' }));
    expect(readCartCertificate()).toBeNull();
    expect(readCart('standard')).toHaveLength(0);
    expect(await screen.findByTestId('cart-empty')).toBeInTheDocument();
  });

  it('locks ordering when it is of another event than the photos', async () => {
    addToCart('standard', [photo(1, 'other-run')]);
    setCartCertificate(somchai);
    const { calls } = api();
    renderCart();
    expect(screen.getByTestId('mixed-events-warning')).toHaveTextContent('ใบประกาศนียบัตรและรูปในตะกร้าต้องเป็นของอีเวนต์เดียวกัน');
    await new Promise((r) => setTimeout(r, 30));
    expect(screen.queryByTestId('submit-order')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')).toHaveLength(0);
  });

  it('is not in the wholesale cart', async () => {
    addToCart('wholesale', [photo(1)]);
    setCartCertificate(somchai);
    const { calls } = api();
    renderCart('wholesale');
    await screen.findByTestId('cart-full-amt');
    expect(screen.queryByTestId('cart-certificate')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST /api/cart/quote')[0]?.body).not.toHaveProperty('certificate_bib');
  });

  it('says a photo pass pays for photos only while the certificate is in the cart', async () => {
    window.localStorage.setItem('currentLanguage', 'en');
    addToCart('standard', [photo(1)]);
    setCartCertificate(somchai);
    api({
      'POST /api/cart/quote': (body: unknown) =>
        (body as { pass_code?: string }).pass_code
          ? makeQuote({ cart_certificate_amt: 49, pass: { photos: 3, pays: false, reason: 'certificate' } })
          : makeQuote({ cart_certificate_amt: 49 }),
    });
    renderCart();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('pass-input'), 'K7QM4XTP9HWA');
    await user.click(screen.getByTestId('pass-apply'));
    expect(await screen.findByTestId('pass-shortfall')).toHaveTextContent(
      'A photo pass pays for photos only: remove the certificate to use it.',
    );
    expect(screen.getByTestId('paid-form')).toBeInTheDocument();
  });

  it('explains a certificate the event gives free', async () => {
    window.localStorage.setItem('currentLanguage', 'en');
    setCartCertificate(somchai);
    api({
      'POST /api/cart/quote': errorAnswer(409, 'certificate_not_sold', { body: { field: 'certificate_bib' } }),
    });
    renderCart();
    expect(await screen.findByTestId('quote-error')).toHaveTextContent(
      'This event’s certificates are free: download yours from your result.',
    );
    expect(screen.getByTestId('cart-certificate-remove')).toBeInTheDocument();
  });
});
