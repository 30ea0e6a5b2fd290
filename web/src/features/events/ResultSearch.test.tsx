//! Finding one's race result: rows by name with time and rank, a row's button asking for
//! the photos of its bib, nothing found said so, and a query the server refuses explained
//! beside the field; the certificate of the one row found, with the photo the runner picks
//! when it is free, and put in the cart (one a cart) when the event sells it.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readCartCertificate, setCartCertificate } from '@/lib/cart';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { ResultSearch } from './ResultSearch';

const ROW = {
  bib: '42',
  name: 'Somchai Jaidee',
  gender: 'M',
  category: 'M30-39',
  distance: '21K',
  gun_time: '1:03:10',
  chip_time: '1:02:03',
  rank: 2,
};

afterEach(() => vi.unstubAllGlobals());

describe('ResultSearch', () => {
  it('shows the rows found and asks for the photos of a bib', async () => {
    const { calls } = fakeFetch({
      'POST /v1/results/search': (body: unknown) =>
        (body as { q: string }).q === 'nobody'
          ? { status: 'success', results: [], photos: null }
          : { status: 'success', results: [ROW, { ...ROW, bib: '7', name: 'Anan Jaidee', chip_time: null, gun_time: null, rank: null }], photos: null },
    });
    const onPhotos = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" busy={false} onPhotos={onPhotos} />, { lang: 'en' });
    await user.type(screen.getByTestId('result-input'), 'jaidee');
    await user.click(screen.getByTestId('result-submit'));
    const rows = await screen.findAllByTestId('result-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Somchai Jaidee');
    expect(rows[0]).toHaveTextContent('bib 42 · 21K · M30-39');
    expect(within(rows[0]!).getByTestId('result-time')).toHaveTextContent('time 1:02:03');
    expect(rows[0]).toHaveTextContent('rank 2');
    expect(within(rows[1]!).queryByTestId('result-time')).not.toBeInTheDocument();
    await user.click(within(rows[0]!).getByTestId('result-photos'));
    expect(onPhotos).toHaveBeenCalledWith('42');
    expect(calls[0]?.body).toEqual({ event_key: 'race', q: 'jaidee' });

    await user.clear(screen.getByTestId('result-input'));
    await user.type(screen.getByTestId('result-input'), 'nobody');
    await user.click(screen.getByTestId('result-submit'));
    expect(await screen.findByTestId('result-none')).toBeInTheDocument();
  });

  it('offers the certificate of the one row found, showing the photo the runner picks', async () => {
    const photo = (id: number) => ({
      id,
      original_file_name: `${id}.jpg`,
      thumbnail_file_name: `${id}.jpg`,
      preview_file_name: `${id}.jpg`,
      photographer_id: 1,
      event_id: 1,
      atc: 'N',
      thumbnail_url: `/media/race/thumbnail/${id}.jpg`,
      preview_url: `/media/race/preview/${id}.jpg`,
      matched_by: 'bib',
    });
    fakeFetch({
      'POST /v1/results/search': {
        status: 'success',
        results: [ROW],
        photos: { status: 'success', images: [photo(11), photo(12)], avg_price: 0, found_ref: 'r' },
        certificate: {
          price: 0,
          photo_id: 11,
          image_url: '/api/events/race/certificates/42/image',
          print_url: '/api/events/race/certificates/42/print',
        },
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" busy={false} onPhotos={vi.fn()} />, { lang: 'en' });
    await user.type(screen.getByTestId('result-input'), '42');
    await user.click(screen.getByTestId('result-submit'));
    const card = await screen.findByTestId('certificate');
    expect(card).toHaveTextContent('Finisher certificate');
    expect(screen.getByTestId('certificate-image')).toHaveAttribute('href', '/api/events/race/certificates/42/image');
    expect(screen.getByTestId('certificate-print')).toHaveAttribute('href', '/api/events/race/certificates/42/print');
    const choices = screen.getAllByTestId('certificate-photo');
    expect(choices[0]).toHaveAttribute('aria-pressed', 'true');
    await user.click(choices[1]!);
    expect(choices[1]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('certificate-preview')).toHaveAttribute('src', '/api/events/race/certificates/42/image?photo=12');
    expect(screen.getByTestId('certificate-print')).toHaveAttribute('href', '/api/events/race/certificates/42/print?photo=12');
  });

  it('puts the certificate the event sells in the cart, then links to the cart', async () => {
    fakeFetch({
      'POST /v1/results/search': {
        status: 'success',
        results: [ROW],
        photos: null,
        certificate: { price: 49, photo_id: null, image_url: null, print_url: null },
      },
    });
    // Another runner's certificate is in the cart already.
    setCartCertificate({ event_key: 'race', bib: '7', name: 'Anan Jaidee' });
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" busy={false} onPhotos={vi.fn()} />, { lang: 'en' });
    await user.type(screen.getByTestId('result-input'), '42');
    await user.click(screen.getByTestId('result-submit'));
    const card = await screen.findByTestId('certificate');
    expect(card).toHaveTextContent('Finisher certificate');
    expect(screen.getByTestId('certificate-price')).toHaveTextContent('49.00 THB');
    // Nothing to download before it is bought.
    expect(screen.queryByTestId('certificate-image')).not.toBeInTheDocument();
    expect(screen.queryByTestId('certificate-print')).not.toBeInTheDocument();
    expect(screen.queryByTestId('certificate-in-cart')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('certificate-add'));
    expect(readCartCertificate()).toEqual({ event_key: 'race', bib: '42', name: 'Somchai Jaidee' });
    const link = await screen.findByTestId('certificate-in-cart');
    expect(link).toHaveAttribute('href', '/cart');
    expect(link).toHaveTextContent('The certificate is in your cart');
    expect(screen.queryByTestId('certificate-add')).not.toBeInTheDocument();
    expect(screen.getByText('Certificate added to the cart')).toBeInTheDocument();
  });

  it('shows a certificate already in the cart as in it, in Thai by default', async () => {
    fakeFetch({
      'POST /v1/results/search': {
        status: 'success',
        results: [ROW],
        photos: null,
        certificate: { price: 1250, photo_id: null, image_url: null, print_url: null },
      },
    });
    setCartCertificate({ event_key: 'race', bib: '42', name: 'Somchai Jaidee' });
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" busy={false} onPhotos={vi.fn()} />);
    await user.type(screen.getByTestId('result-input'), '42');
    await user.click(screen.getByTestId('result-submit'));
    expect(await screen.findByTestId('certificate-price')).toHaveTextContent('1,250.00 บาท');
    expect(screen.getByTestId('certificate-in-cart')).toHaveTextContent('ใบประกาศนียบัตรอยู่ในตะกร้าแล้ว');
    expect(screen.queryByTestId('certificate-add')).not.toBeInTheDocument();
  });

  it('outside the sale, shows the rows without a photos button', async () => {
    fakeFetch({ 'POST /v1/results/search': { status: 'success', results: [ROW], photos: null, certificate: null } });
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" />, { lang: 'en' });
    await user.type(screen.getByTestId('result-input'), '42');
    await user.click(screen.getByTestId('result-submit'));
    const row = await screen.findByTestId('result-row');
    expect(row).toHaveTextContent('Somchai Jaidee');
    expect(within(row).queryByTestId('result-photos')).not.toBeInTheDocument();
  });

  it('explains a query the server refuses', async () => {
    fakeFetch({
      'POST /v1/results/search': errorAnswer(422, 'invalid_field', {
        body: { field: 'q', message: 'type at least 2 letters of the name, or the bib number' },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ResultSearch eventKey="race" busy={false} onPhotos={vi.fn()} />, { lang: 'en' });
    await user.type(screen.getByTestId('result-input'), 'a');
    await user.click(screen.getByTestId('result-submit'));
    expect(await screen.findByTestId('result-error')).toBeInTheDocument();
  });
});
