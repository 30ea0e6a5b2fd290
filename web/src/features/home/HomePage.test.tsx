//! Home page: the events on sale with their links, pagination from the count, the upcoming
//! section only when there is something upcoming, the banners, and the retry on failure.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody } from '@/api/types';
import { makeEvent } from '@/test/fixtures';
import { errorAnswer, errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { HomePage, pageCount, pageFromQuery } from './HomePage';

function event(n: number, extra: Partial<EventBody> = {}): EventBody {
  return makeEvent({
    event_id: n,
    event_key: `run-${n}`,
    title: `Run number ${n}`,
    coverurl: `https://img.example/${n}.jpg`,
    event_date_text: `${n} January 2025`,
    province: 'Bangkok',
    on_sale_start_txt: '2025-01-12 09:00',
    package: [],
    package_hb: [],
    ...extra,
  });
}

const ok = <T,>(body: T) => ({ status: 'success', body });

/** The home page's four calls: no banners, nothing upcoming and one event on sale, unless
 * `answers` says otherwise. */
function serveHome(answers: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({
    'GET /v1/events/slider-banner': ok([]),
    'GET /v1/events/soon': ok([]),
    'POST /v1/events/pagination': ok([event(1)]),
    'POST /v1/events/pagination-count': ok([{ event_count: 1 }]),
    ...answers,
  });
}

function stubObservers() {
  // Embla measures its slides with these and reads media queries; jsdom has none of them.
  class Noop {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('ResizeObserver', Noop);
  vi.stubGlobal('IntersectionObserver', Noop);
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: false,
    media,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  }));
}

beforeEach(() => {
  stubObservers();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('page helpers', () => {
  it('counts pages of 18, rounding up', () => {
    expect(pageCount(0)).toBe(0);
    expect(pageCount(18)).toBe(1);
    expect(pageCount(19)).toBe(2);
    expect(pageCount(40)).toBe(3);
  });

  it('reads ?page=N, defaulting to 1', () => {
    expect(pageFromQuery('3')).toBe(3);
    expect(pageFromQuery(null)).toBe(1);
    expect(pageFromQuery('0')).toBe(1);
    expect(pageFromQuery('abc')).toBe(1);
    expect(pageFromQuery('2.5')).toBe(1);
  });
});

describe('HomePage', () => {
  it('lists the events on sale as links with their details', async () => {
    const { calls } = serveHome({
      'POST /v1/events/pagination': ok([event(1, { pin: 1, province: 'Chiang Mai' }), event(2)]),
      'POST /v1/events/pagination-count': ok([{ event_count: 2 }]),
    });
    renderWithProviders(<HomePage />);

    const cards = await screen.findAllByTestId('event-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveAttribute('href', '/run-1');
    expect(cards[1]).toHaveAttribute('href', '/run-2');
    const first = within(cards[0]!);
    expect(first.getByRole('heading', { name: 'Run number 1' })).toBeInTheDocument();
    expect(first.getByText('1 January 2025')).toBeInTheDocument();
    expect(first.getByText('Chiang Mai')).toBeInTheDocument();
    expect(first.getByTestId('event-pinned')).toHaveTextContent('ปักหมุด');
    expect(within(cards[1]!).queryByTestId('event-pinned')).toBeNull();
    expect(first.getByText((_, el) => el?.tagName === 'TIME')).toHaveAttribute('datetime', '2025-01-12');

    // The first cover is the Largest Contentful Paint; covers past the first row wait.
    const img = cards[0]!.querySelector('img')!;
    expect(img).toHaveAttribute('src', 'https://img.example/1.jpg');
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('fetchpriority', 'high');

    expect(calls.find((c) => c.key === 'POST /v1/events/pagination')?.body).toEqual({ page: 1, page_size: 18 });
    expect(calls.find((c) => c.key === 'POST /v1/events/pagination-count')?.body).toEqual({
      event_status: 'ON_SALE',
    });
    // One page only: no page links.
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(document.querySelector('.pagination')).toBeNull();
  });

  it('lazy-loads covers after the first row', async () => {
    serveHome({
      'POST /v1/events/pagination': ok(Array.from({ length: 6 }, (_, i) => event(i + 1))),
      'POST /v1/events/pagination-count': ok([{ event_count: 6 }]),
    });
    renderWithProviders(<HomePage />);
    const cards = await screen.findAllByTestId('event-card');
    expect(cards[5]!.querySelector('img')).toHaveAttribute('loading', 'lazy');
    expect(cards[1]!.querySelector('img')).not.toHaveAttribute('fetchpriority', 'high');
  });

  it('shows 3 pages for 40 events and keeps the chosen page in the address', async () => {
    const { calls } = serveHome({
      'POST /v1/events/pagination': (body: unknown) => {
        const { page } = body as { page: number };
        return ok([event(page * 100)]);
      },
      'POST /v1/events/pagination-count': ok([{ event_count: 40 }]),
    });
    const { router } = renderWithProviders(<HomePage />, { route: '/?page=2' });

    expect(await screen.findByText('Run number 200')).toBeInTheDocument();
    // The pagination library comes in its own chunk, once there is more than one page.
    const pager = await waitFor(() => {
      const found = document.querySelector('.pagination');
      expect(found).toBeTruthy();
      return found!;
    });
    const pageLinks = within(pager as HTMLElement)
      .getAllByRole('button')
      .map((b) => b.textContent)
      .filter((x) => x && /^\d+$/.test(x));
    expect(pageLinks).toEqual(['1', '2', '3']);

    await userEvent.click(within(pager as HTMLElement).getByRole('button', { name: /page 3/i }));
    expect(await screen.findByText('Run number 300')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=3');
    expect(calls.filter((c) => c.key === 'POST /v1/events/pagination').map((c) => c.body)).toEqual([
      { page: 2, page_size: 18 },
      { page: 3, page_size: 18 },
    ]);
  });

  it('hides the upcoming section when nothing is coming', async () => {
    serveHome();
    renderWithProviders(<HomePage />);
    await screen.findAllByTestId('event-card');
    expect(screen.queryByTestId('upcoming-events')).toBeNull();
    expect(screen.queryByText('อีเวนต์ที่กำลังจะเปิดขาย')).toBeNull();
  });

  it('shows upcoming events with their sale start', async () => {
    serveHome({ 'GET /v1/events/soon': ok([event(9, { title: 'Trail soon', event_status: 'SOON' })]) });
    renderWithProviders(<HomePage />);
    const section = await screen.findByTestId('upcoming-events');
    expect(within(section).getByRole('heading', { name: 'อีเวนต์ที่กำลังจะเปิดขาย' })).toBeInTheDocument();
    expect(within(section).getByText('Trail soon')).toBeInTheDocument();
    expect(within(section).getByText(/^เปิดขาย .*09:00/)).toBeInTheDocument();
    // Upcoming cards do not count as on-sale cards.
    expect(screen.getAllByTestId('event-card')).toHaveLength(1);
  });

  it('shows the banners as links, internal ones through the router', async () => {
    serveHome({
      'GET /v1/events/slider-banner': ok([
        { image_url: 'https://img.example/b1.jpg', link_url: '/run-1' },
        { image_url: 'https://img.example/b2.jpg', link_url: 'https://partner.example/' },
      ]),
    });
    renderWithProviders(<HomePage />);
    const slides = await screen.findAllByTestId('banner-slide');
    expect(slides).toHaveLength(2);
    expect(within(slides[0]!).getByRole('link')).toHaveAttribute('href', '/run-1');
    expect(within(slides[1]!).getByRole('link')).toHaveAttribute('href', 'https://partner.example/');
    expect(within(slides[1]!).getByRole('link')).toHaveAttribute('target', '_blank');
    // The arrows come with the carousel's own chunk, loaded because there are two banners.
    expect(await screen.findByRole('button', { name: 'แบนเนอร์ถัดไป' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'แบนเนอร์ประชาสัมพันธ์' })).toHaveAttribute(
      'aria-roledescription',
      'carousel',
    );
  });

  it('shows a single banner as it is, without the carousel or its arrows', async () => {
    serveHome({
      'GET /v1/events/slider-banner': ok([{ image_url: 'https://img.example/b1.jpg', link_url: '/run-1' }]),
    });
    renderWithProviders(<HomePage />);
    const [slide] = await screen.findAllByTestId('banner-slide');
    expect(within(slide!).getByRole('link')).toHaveAttribute('href', '/run-1');
    expect(within(slide!).getByRole('img')).toHaveAttribute('fetchpriority', 'high');
    await screen.findAllByTestId('event-card');
    expect(screen.getByRole('region', { name: 'แบนเนอร์ประชาสัมพันธ์' })).not.toHaveAttribute('aria-roledescription');
    expect(screen.queryByRole('button', { name: 'แบนเนอร์ถัดไป' })).toBeNull();
  });

  it('hides the carousel when there are no banners', async () => {
    serveHome();
    renderWithProviders(<HomePage />);
    await screen.findAllByTestId('event-card');
    expect(screen.queryByTestId('banner-slide')).toBeNull();
    expect(screen.queryByRole('region', { name: 'แบนเนอร์ประชาสัมพันธ์' })).toBeNull();
  });

  it('asks to retry when the events cannot be loaded, and retries', async () => {
    let fail = true;
    serveHome({
      'POST /v1/events/pagination': () => (fail ? errorResponse(500, 'internal', { body: { message: 'boom' } }) : ok([event(1)])),
    });
    renderWithProviders(<HomePage />);

    // The toast and the inline notice both ask to try again.
    await waitFor(() => expect(screen.getAllByText('โหลดรายการอีเวนต์ไม่สำเร็จ กรุณาลองใหม่อีกครั้ง')).toHaveLength(2));
    expect(screen.queryAllByTestId('event-card')).toHaveLength(0);

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'ลองใหม่' }));
    expect(await screen.findByTestId('event-card')).toHaveAttribute('href', '/run-1');
    expect(screen.queryByRole('button', { name: 'ลองใหม่' })).toBeNull();
  });

  it('toasts once when both the list and its count fail, and again after a failed retry', async () => {
    const failure = errorAnswer(500, 'internal', { body: { message: 'boom' } });
    serveHome({ 'POST /v1/events/pagination': failure, 'POST /v1/events/pagination-count': failure });
    renderWithProviders(<HomePage />);
    const toasts = () => document.querySelectorAll('.toast-error');

    await screen.findByRole('button', { name: 'ลองใหม่' });
    await waitFor(() => expect(toasts()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(toasts()).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'ลองใหม่' }));
    await waitFor(() => expect(toasts()).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(toasts()).toHaveLength(2);
  });

  it('says so when nothing is on sale', async () => {
    serveHome({ 'POST /v1/events/pagination': ok([]), 'POST /v1/events/pagination-count': ok([{ event_count: 0 }]) });
    renderWithProviders(<HomePage />);
    expect(await screen.findByText('ยังไม่มีอีเวนต์ที่เปิดขายในขณะนี้')).toBeInTheDocument();
  });
});
