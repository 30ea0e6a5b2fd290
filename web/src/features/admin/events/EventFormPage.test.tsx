//! Console event form: the import-format body it sends, the server's field problems shown
//! beside the right inputs, the checks made before sending, edit mode filled from the stored
//! event in the import format (banners included), and the forbidden text for photographers.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import { adminMe, eventList, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';
import type { ImportEvent } from './api';
import { EventFormPage } from './EventFormPage';

const listRoute = { path: '/admin/events', element: <p>events list</p> };

/** `GET /api/admin/events/bkk-run-2026`: the stored event in the import format. */
const stored: ImportEvent = {
  event_key: 'bkk-run-2026',
  title: 'Bangkok Night Run 2026',
  coverurl: 'https://img.example/bkk-run.jpg',
  event_date_text: '1 มี.ค. 2569',
  eventdate: '2026-03-01',
  province: 'กรุงเทพมหานคร',
  on_sale_start: '2026-03-01T00:00:00+07:00',
  on_sale_end: '2099-04-01T00:00:00+07:00',
  is_hybrid: 'Y',
  is_mhao: 'Y',
  mhao_price: 990,
  is_mhao_hybrid: 'N',
  hybrid_mhao_price: null,
  is_event_stage: 'N',
  is_free_download: 'N',
  is_free_download_keep_contract: 'N',
  caption_button_buy_all: 'Buy all',
  face_threshold: 0.4,
  max_face_search: 300,
  pin: 'Y',
  bib_min_digits: 3,
  bib_max_digits: 5,
  bib_prefix: 'FH',
  package: [
    { name: '1 รูป', name_en: '1 photo', number_of_photo: 1, price: 60 },
    { name: '5 รูป', name_en: '5 photos', number_of_photo: 5, price: 250 },
  ],
  package_hb: [{ name: '1 รูป', name_en: '1 photo', number_of_photo: 1, price: 40 }],
  banners: [{ image_url: 'https://img.example/banner.jpg', link_url: '/bkk-run-2026' }],
};

function renderNew(me: Me = adminMe) {
  return renderAsOperator(<EventFormPage />, {
    me,
    lang: 'en',
    path: '/admin/events/new',
    route: '/admin/events/new',
    routes: [listRoute],
  });
}

function renderEdit(key = 'bkk-run-2026') {
  return renderAsOperator(<EventFormPage />, {
    lang: 'en',
    path: '/admin/events/:eventKey/edit',
    route: `/admin/events/${key}/edit`,
    routes: [listRoute],
  });
}

afterEach(() => vi.unstubAllGlobals());

/** Types each value into its field's input (test id `field-…`), in the order given. */
async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [field, value] of Object.entries(values)) await user.type(screen.getByTestId(`field-${field}`), value);
}

/** What a new event needs to be sent: its required fields and one price tier. */
const newEvent = {
  event_key: 'y-run',
  title: 'Y',
  eventdate: '2026-12-01',
  on_sale_start: '2026-12-01',
  on_sale_end: '2026-12-31',
  'package-0-name': 'one',
  'package-0-price': '60',
};

const putCalls = (calls: { key: string; body: unknown }[]) => calls.filter((c) => c.key.startsWith('PUT '));

describe('EventFormPage (new event)', () => {
  it('sends every field in the import format: flags as Y/N, numbers as numbers, tiers and banners', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'PUT /api/admin/events/new-run': { event_key: 'new-run', result: 'created' },
    });
    const user = userEvent.setup();
    const { router } = renderNew();
    await screen.findByTestId('event-form');

    await fill(user, {
      event_key: 'new-run',
      title: 'New Run 2026',
      province: 'Chiang Rai',
      event_date_text: '1 Dec 2026',
      eventdate: '2026-12-01',
      on_sale_start: '2026-12-01',
      on_sale_end: '2026-12-31T18:00:00+07:00',
    });
    await user.click(screen.getByTestId('field-is_mhao'));
    await user.type(screen.getByTestId('field-mhao_price'), '990');
    await user.click(screen.getByTestId('field-is_hybrid'));
    await user.click(screen.getByTestId('field-pin'));
    await user.type(screen.getByTestId('field-face_threshold'), '0.4');

    // The 1-photo tier is there from the start.
    expect(screen.getByTestId('field-package-0-number_of_photo')).toHaveValue('1');
    await fill(user, { 'package-0-name': '1 รูป', 'package-0-name_en': '1 photo', 'package-0-price': '60' });
    await user.click(screen.getByTestId('add-package'));
    await fill(user, { 'package-1-name': '5 รูป', 'package-1-number_of_photo': '5', 'package-1-price': '249.50' });

    await user.click(screen.getByTestId('add-package_hb'));
    await fill(user, { 'package_hb-0-name': 'one', 'package_hb-0-number_of_photo': '1', 'package_hb-0-price': '40' });

    await user.click(screen.getByTestId('add-banners'));
    await fill(user, {
      'banners-0-image_url': 'https://img.example/b.jpg',
      'banners-0-link_url': '/new-run',
      coverurl: 'https://img.example/cover.jpg',
    });
    expect(screen.getByTestId('cover-preview')).toHaveAttribute('src', 'https://img.example/cover.jpg');

    await user.click(screen.getByTestId('save-event'));

    await waitFor(() => expect(putCalls(calls)).toHaveLength(1));
    expect(putCalls(calls)[0]).toEqual({
      key: 'PUT /api/admin/events/new-run',
      body: {
        event_key: 'new-run',
        title: 'New Run 2026',
        coverurl: 'https://img.example/cover.jpg',
        event_date_text: '1 Dec 2026',
        eventdate: '2026-12-01',
        province: 'Chiang Rai',
        on_sale_start: '2026-12-01',
        on_sale_end: '2026-12-31T18:00:00+07:00',
        is_hybrid: 'Y',
        is_mhao: 'Y',
        mhao_price: 990,
        is_mhao_hybrid: 'N',
        hybrid_mhao_price: null,
        is_event_stage: 'N',
        is_free_download: 'N',
        is_free_download_keep_contract: 'N',
        caption_button_buy_all: '',
        face_threshold: 0.4,
        max_face_search: null,
        pin: 'Y',
        bib_min_digits: 1,
        bib_max_digits: 6,
        bib_prefix: '',
        package: [
          { name: '1 รูป', name_en: '1 photo', number_of_photo: 1, price: 60 },
          { name: '5 รูป', name_en: '', number_of_photo: 5, price: 249.5 },
        ],
        package_hb: [{ name: 'one', name_en: '', number_of_photo: 1, price: 40 }],
        banners: [{ image_url: 'https://img.example/b.jpg', link_url: '/new-run' }],
      },
    });
    expect(await screen.findByText('events list')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/events');
    expect(screen.getByText('Event new-run created')).toBeInTheDocument();
  }, 15_000);

  it('shows each of the server’s field problems next to its own input, and a summary', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events': eventList([]),
      'PUT /api/admin/events/x-run': errorAnswer(422, 'invalid_field', {
        body: {
          message: 'must be above 0',
          field: 'package[0].price',
          errors: [
            { field: 'package[0].price', message: 'must be above 0' },
            { field: 'on_sale_end', message: 'must be after on_sale_start' },
            { field: 'package[1].price', message: 'must have at most two decimals' },
          ],
        },
      }),
    });
    const user = userEvent.setup();
    const { router } = renderNew();
    await screen.findByTestId('event-form');
    await fill(user, {
      ...newEvent,
      event_key: 'x-run',
      title: 'X',
      on_sale_start: '2026-12-10',
      on_sale_end: '2026-12-01',
      'package-0-price': '0',
    });
    await user.click(screen.getByTestId('add-package'));
    await fill(user, { 'package-1-name': 'five', 'package-1-number_of_photo': '5', 'package-1-price': '1.234' });
    await user.click(screen.getByTestId('save-event'));

    const priceError = await screen.findByTestId('error-package[0].price');
    expect(priceError).toHaveTextContent('must be above 0');
    const priceInput = screen.getByTestId('field-package-0-price');
    expect(priceInput.closest('.field')).toContainElement(priceError);
    expect(priceInput).toHaveAttribute('aria-invalid', 'true');
    expect(priceInput.getAttribute('aria-describedby')).toContain(priceError.id);

    const secondPrice = screen.getByTestId('error-package[1].price');
    expect(screen.getByTestId('field-package-1-price').closest('.field')).toContainElement(secondPrice);
    const endError = screen.getByTestId('error-on_sale_end');
    expect(endError).toHaveTextContent('must be after on_sale_start');
    expect(screen.getByTestId('field-on_sale_end').closest('.field')).toContainElement(endError);
    expect(screen.queryByTestId('error-title')).not.toBeInTheDocument();

    const summary = screen.getByTestId('form-errors');
    expect(summary).toHaveTextContent('Please fix these 3 problems');
    expect(within(summary).getAllByRole('listitem')).toHaveLength(3);
    expect(summary).toHaveTextContent('Price tiers 1 · Price (baht): must be above 0');
    expect(router.state.location.pathname).toBe('/admin/events/new');
    expect(putCalls(calls)).toHaveLength(1);

    // Correcting a field takes its problem away.
    await user.clear(priceInput);
    await user.type(priceInput, '60');
    expect(screen.queryByTestId('error-package[0].price')).not.toBeInTheDocument();
    expect(screen.getByTestId('form-errors')).toHaveTextContent('Please fix these 2 problems');
  });

  it('shows a single refused field (no list) beside its input too', async () => {
    fakeFetch({
      'GET /api/admin/events': eventList([]),
      'PUT /api/admin/events/y-run': errorAnswer(422, 'invalid_field', {
        body: { message: 'must be a real date', field: 'eventdate' },
      }),
    });
    const user = userEvent.setup();
    renderNew();
    await screen.findByTestId('event-form');
    await fill(user, newEvent);
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByTestId('error-eventdate')).toHaveTextContent('must be a real date');
    expect(screen.getByTestId('form-errors')).toHaveTextContent('Please fix these 1 problems');
    expect(screen.queryByTestId('save-error')).not.toBeInTheDocument();
  });

  it('checks required fields and numbers before sending anything', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events': eventList() });
    const user = userEvent.setup();
    renderNew();
    await screen.findByTestId('event-form');
    // Whether a key is taken is known from the list.
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/admin/events'));
    await user.type(screen.getByTestId('field-event_key'), 'bkk-run-2026');
    await user.type(screen.getByTestId('field-package-0-price'), 'abc');
    await user.type(screen.getByTestId('field-max_face_search'), '2.5');
    await user.click(screen.getByTestId('save-event'));

    expect(await screen.findByTestId('error-title')).toHaveTextContent('Please fill this in.');
    expect(screen.getByTestId('error-eventdate')).toBeInTheDocument();
    expect(screen.getByTestId('error-on_sale_start')).toBeInTheDocument();
    expect(screen.getByTestId('error-event_key')).toHaveTextContent('An event already uses this key');
    expect(screen.getByTestId('error-package[0].price')).toHaveTextContent('Must be a number.');
    expect(screen.getByTestId('error-package[0].name')).toHaveTextContent('Please fill this in.');
    expect(screen.getByTestId('error-max_face_search')).toHaveTextContent('Must be a whole number.');
    expect(putCalls(calls)).toHaveLength(0);
  });

  it('checks the bib rule as the server does: 1 to 8 digits, fewest not above most, letters only', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events': eventList() });
    const user = userEvent.setup();
    renderNew();
    await screen.findByTestId('event-form');
    // A new event starts with the server's defaults.
    expect(screen.getByTestId('field-bib_min_digits')).toHaveValue('1');
    expect(screen.getByTestId('field-bib_max_digits')).toHaveValue('6');
    expect(screen.getByTestId('field-bib_prefix')).toHaveValue('');

    await user.clear(screen.getByTestId('field-bib_min_digits'));
    await user.type(screen.getByTestId('field-bib_min_digits'), '9');
    await user.type(screen.getByTestId('field-bib_prefix'), 'F-1');
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByTestId('error-bib_min_digits')).toHaveTextContent('Must be a whole number from 1 to 8.');
    expect(screen.getByTestId('error-bib_prefix')).toHaveTextContent('Letters A–Z only.');
    // An out-of-range count is not also compared with the other.
    expect(screen.queryByTestId('error-bib_max_digits')).not.toBeInTheDocument();
    expect(screen.getByTestId('form-errors')).toHaveTextContent('Fewest digits of a bib number');

    await user.clear(screen.getByTestId('field-bib_min_digits'));
    await user.type(screen.getByTestId('field-bib_min_digits'), '5');
    await user.clear(screen.getByTestId('field-bib_max_digits'));
    await user.type(screen.getByTestId('field-bib_max_digits'), '4');
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByTestId('error-bib_max_digits')).toHaveTextContent('Must not be below the fewest digits.');
    expect(screen.queryByTestId('error-bib_min_digits')).not.toBeInTheDocument();
    expect(putCalls(calls)).toHaveLength(0);
  });

  it('sends the bib rule, the prefix in capitals and empty counts as the default', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'PUT /api/admin/events/y-run': { event_key: 'y-run', result: 'created' },
    });
    const user = userEvent.setup();
    renderNew();
    await screen.findByTestId('event-form');
    await fill(user, newEvent);
    await user.clear(screen.getByTestId('field-bib_min_digits'));
    await user.clear(screen.getByTestId('field-bib_max_digits'));
    await user.type(screen.getByTestId('field-bib_max_digits'), '8');
    await user.type(screen.getByTestId('field-bib_prefix'), ' fh ');
    await user.click(screen.getByTestId('save-event'));
    await waitFor(() => expect(putCalls(calls)).toHaveLength(1));
    expect(putCalls(calls)[0]?.body).toMatchObject({ bib_min_digits: null, bib_max_digits: 8, bib_prefix: 'FH' });
  });

  it('shows a photographer the forbidden text instead of the form', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events': eventList() });
    renderNew(photographerMe);
    expect(await screen.findByTestId('admin-forbidden')).toHaveTextContent('This account may not do that.');
    expect(screen.queryByTestId('event-form')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('EventFormPage (edit)', () => {
  it('loads the stored event (banners too), keeps the key fixed and saves it back in the import format', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/bkk-run-2026': stored,
      'PUT /api/admin/events/bkk-run-2026': { event_key: 'bkk-run-2026', result: 'updated' },
    });
    const user = userEvent.setup();
    renderEdit();
    await screen.findByTestId('event-form');
    // The console's own copy (hidden events too), never the shop's public one.
    expect(calls.map((c) => c.key)).toEqual(['GET /api/admin/events/bkk-run-2026']);

    expect(screen.getByTestId('field-event_key')).toHaveValue('bkk-run-2026');
    expect(screen.getByTestId('field-event_key')).toHaveAttribute('readonly');
    expect(screen.getByTestId('field-title')).toHaveValue('Bangkok Night Run 2026');
    expect(screen.getByTestId('field-eventdate')).toHaveValue('2026-03-01');
    expect(screen.getByTestId('field-on_sale_start')).toHaveValue('2026-03-01T00:00:00+07:00');
    expect(screen.getByTestId('field-on_sale_end')).toHaveValue('2099-04-01T00:00:00+07:00');
    expect(screen.getByTestId('field-is_mhao')).toBeChecked();
    expect(screen.getByTestId('field-is_hybrid')).toBeChecked();
    expect(screen.getByTestId('field-is_mhao_hybrid')).not.toBeChecked();
    expect(screen.getByTestId('field-pin')).toBeChecked();
    expect(screen.getByTestId('field-mhao_price')).toHaveValue('990');
    expect(screen.getByTestId('field-hybrid_mhao_price')).toHaveValue('');
    expect(screen.getByTestId('field-face_threshold')).toHaveValue('0.4');
    expect(screen.getByTestId('field-bib_min_digits')).toHaveValue('3');
    expect(screen.getByTestId('field-bib_max_digits')).toHaveValue('5');
    expect(screen.getByTestId('field-bib_prefix')).toHaveValue('FH');
    expect(screen.getByTestId('field-package-1-price')).toHaveValue('250');
    expect(screen.getByTestId('field-package_hb-0-price')).toHaveValue('40');
    expect(screen.getByTestId('field-banners-0-image_url')).toHaveValue('https://img.example/banner.jpg');
    expect(screen.getByTestId('field-banners-0-link_url')).toHaveValue('/bkk-run-2026');

    await user.clear(screen.getByTestId('field-title'));
    await user.type(screen.getByTestId('field-title'), 'Bangkok Night Run');
    await user.click(screen.getByTestId('remove-package-1'));
    await user.click(screen.getByTestId('save-event'));

    await waitFor(() => expect(putCalls(calls)).toHaveLength(1));
    // Everything else goes back as it came, the banners included.
    expect(putCalls(calls)[0]).toEqual({
      key: 'PUT /api/admin/events/bkk-run-2026',
      body: { ...stored, title: 'Bangkok Night Run', package: [stored.package[0]] },
    });
    expect(await screen.findByText('events list')).toBeInTheDocument();
    expect(screen.getByText('Event bkk-run-2026 saved')).toBeInTheDocument();
  });

  it('reads flags written as booleans or 1/0 and leaves missing fields empty', async () => {
    fakeFetch({
      'GET /api/admin/events/odd': {
        event_key: 'odd',
        title: 'Odd',
        eventdate: '2026-05-01',
        on_sale_start: '2026-05-01',
        on_sale_end: '2026-06-01',
        is_mhao: true,
        pin: 1,
        is_hybrid: 'N',
      },
    });
    renderEdit('odd');
    await screen.findByTestId('event-form');
    expect(screen.getByTestId('field-is_mhao')).toBeChecked();
    expect(screen.getByTestId('field-pin')).toBeChecked();
    expect(screen.getByTestId('field-is_hybrid')).not.toBeChecked();
    expect(screen.getByTestId('field-province')).toHaveValue('');
    expect(screen.queryByTestId('field-package-0-name')).not.toBeInTheDocument();
    expect(screen.queryByTestId('field-banners-0-image_url')).not.toBeInTheDocument();
  });

  it('says so when the event cannot be loaded', async () => {
    fakeFetch({ 'GET /api/admin/events/gone': errorAnswer(404, 'event_not_found') });
    renderEdit('gone');
    expect(await screen.findByTestId('event-load-error')).toHaveTextContent('This event was not found.');
    expect(screen.queryByTestId('event-form')).not.toBeInTheDocument();
  });
});
