//! The route table: a page whose chunk `loadPage` has fetched renders at once (the first
//! page, asked for as the app starts); legacy addresses lead to their new page; an alert's
//! link opens its page, not an event's. (Pages
//! loading on navigation are exercised by the browser suite.)

import { screen } from '@testing-library/react';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { AppRoutes, loadPage } from './routes';

describe('routes', () => {
  beforeEach(() => {
    // The frame scrolls to the top on every new address; jsdom has no scrolling.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('render a loaded page without waiting', async () => {
    await loadPage('/about');
    renderWithProviders(<AppRoutes />, { route: '/about' });
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('send legacy addresses to the page that replaced them', async () => {
    const { router } = renderWithProviders(<AppRoutes />, { route: '/d/abc' });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/download/abc'));
  });

  it('open an alert’s page from its messages’ links', async () => {
    fakeFetch({ 'GET /api/alerts/abc': errorAnswer(404, 'alert_not_found') });
    await loadPage('/alerts/abc');
    renderWithProviders(<AppRoutes />, { route: '/alerts/abc?t=x' });
    expect(await screen.findByTestId('alert-ended')).toBeInTheDocument();
  });
});
