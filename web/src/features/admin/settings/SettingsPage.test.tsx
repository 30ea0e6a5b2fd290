//! Console settings page: the values in force and the secrets' badges, a save that sends
//! only the changed keys (an empty secret nothing, "clear" and "use server configuration"
//! `null`), the gateway switch asked first, the server's 422 problems beside their inputs,
//! the logo checked before it is sent and then PUT as bytes, and photographers' forbidden text.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { SettingsPage } from './SettingsPage';
import type { Setting, Settings } from './settingsModel';

const setting = (key: string, value: string | null, extra: Partial<Setting> = {}): Setting => ({
  key,
  secret: false,
  value,
  set: value !== null,
  from_console: false,
  ...extra,
});
const secret = (key: string, set: boolean, fromConsole = false): Setting => ({
  key,
  secret: true,
  value: null,
  set,
  from_console: fromConsole,
});

const inForce: Settings = {
  settings: [
    setting('payments.gateway', 'GBP'),
    setting('payments.promptpay_id', '0812345678', { from_console: true }),
    secret('payments.gbp.token', true),
    secret('payments.gbp.secret_key', false),
    setting('payments.opn.public_key', null),
    secret('payments.opn.secret_key', true, true),
    secret('payments.opn.webhook_secret', false),
    setting('notify.smtp.host', 'smtp.example.com'),
    setting('notify.smtp.port', '587'),
    setting('notify.smtp.username', 'mailer'),
    secret('notify.smtp.password', true),
    setting('notify.smtp.from', 'Raceshot <shop@example.com>'),
    setting('notify.smtp.tls', 'starttls'),
    setting('sms.provider', null),
    secret('sms.key', false),
    secret('sms.secret', false),
    setting('sms.sender', null),
    setting('orders.retention_days', '90', { from_console: true }),
  ],
  gateways: ['GBP', 'OPN', 'PROMPTPAY'],
  sms_provider: 'log',
  shop_logo: true,
  face_models: {
    pair: 'insightface',
    licence: 'InsightFace SCRFD-500M + w600k_mbf: non-commercial research use only',
    commercial: false,
  },
};

/** The settings with some keys replaced, as the server answers a save. */
function withValues(changes: Record<string, Partial<Setting>>, base: Settings = inForce): Settings {
  return { ...base, settings: base.settings.map((s) => (s.key in changes ? { ...s, ...changes[s.key] } : s)) };
}

function renderPage() {
  return renderWithProviders(<SettingsPage />, { lang: 'en', path: '/admin/settings', route: '/admin/settings' });
}

/** The page with its form drawn, and a user to work it. */
async function openForm(options?: Parameters<typeof userEvent.setup>[0]) {
  const user = userEvent.setup(options);
  renderPage();
  await screen.findByTestId('settings-form');
  return user;
}

const field = (key: string) => screen.getByTestId(`setting-${key}`);

/** Replaces what a setting's input holds. */
async function retype(user: ReturnType<typeof userEvent.setup>, key: string, value: string) {
  await user.clear(field(key));
  await user.type(field(key), value);
}
const puts = (calls: { key: string; body: unknown }[]) => calls.filter((c) => c.key === 'PUT /api/admin/settings');

afterEach(() => vi.unstubAllGlobals());

describe('SettingsPage', () => {
  it('shows the values in force, empty secrets with set / not set badges, and the read-only parts', async () => {
    fakeFetch({ 'GET /api/admin/settings': inForce });
    renderPage();
    await screen.findByTestId('settings-form');
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();

    expect(field('payments.gateway')).toHaveValue('GBP');
    expect(within(field('payments.gateway')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'GB Prime Pay',
      'OPN (Omise)',
      'PromptPay QR',
    ]);
    expect(field('payments.promptpay_id')).toHaveValue('0812345678');
    expect(field('notify.smtp.host')).toHaveValue('smtp.example.com');
    expect(field('notify.smtp.port')).toHaveValue('587');
    expect(field('notify.smtp.tls')).toHaveValue('starttls');
    expect(field('orders.retention_days')).toHaveValue('90');
    expect(field('payments.opn.public_key')).toHaveValue('');

    // Secrets are write-only: the input starts empty, a badge says whether one is stored.
    for (const key of ['payments.gbp.token', 'payments.gbp.secret_key', 'notify.smtp.password']) {
      expect(field(key)).toHaveValue('');
      expect(field(key)).toHaveAttribute('type', 'password');
    }
    expect(screen.getByTestId('setting-badges-payments.gbp.token')).toHaveTextContent('Set');
    expect(screen.getByTestId('setting-badges-payments.gbp.secret_key')).toHaveTextContent('Not set');
    expect(screen.getByTestId('setting-badges-payments.opn.secret_key')).toHaveTextContent('SetSet in the console');

    // Where a value comes from.
    expect(screen.getByTestId('setting-badges-payments.promptpay_id')).toHaveTextContent('Set in the console');
    expect(screen.getByTestId('setting-badges-notify.smtp.host')).toHaveTextContent('From the server configuration');
    expect(screen.getByTestId('setting-badges-payments.opn.public_key')).toHaveTextContent('Not set');
    expect(screen.getByTestId('setting-reset-payments.promptpay_id')).toBeInTheDocument();
    expect(screen.queryByTestId('setting-reset-notify.smtp.host')).not.toBeInTheDocument();

    // Inputs are labelled by their names.
    expect(screen.getByLabelText('SMTP password')).toBe(field('notify.smtp.password'));
    expect(screen.getByLabelText('Days kept after the event')).toBe(field('orders.retention_days'));

    // Text messages: no provider yet (only logged); its keys are secrets like the others.
    expect(field('sms.provider')).toHaveValue('');
    expect(within(field('sms.provider')).getByRole('option', { name: 'ThaiBulkSMS' })).toBeInTheDocument();
    expect(field('sms.key')).toHaveAttribute('type', 'password');
    expect(field('sms.secret')).toHaveAttribute('type', 'password');
    expect(screen.getByText(/written to the server’s log only/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'The shop’s current logo' })).toHaveAttribute(
      'src',
      '/api/admin/settings/logo',
    );
  });

  it('saves only the changed keys, then shows the answer and a success toast', async () => {
    const saved = withValues({
      'payments.promptpay_id': { value: '0899999999' },
      'notify.smtp.host': { value: 'mail.raceshot.app', from_console: true },
      'notify.smtp.password': { from_console: true },
    });
    const { calls } = fakeFetch({ 'GET /api/admin/settings': inForce, 'PUT /api/admin/settings': saved });
    const user = await openForm();

    await retype(user, 'payments.promptpay_id', '0899999999');
    await retype(user, 'notify.smtp.host', 'mail.raceshot.app');
    await user.type(field('notify.smtp.password'), 'n3w-pass');
    // Typed back to the value in force: no change.
    await retype(user, 'notify.smtp.port', '587');
    expect(screen.getByText('Unsaved changes: 3')).toBeInTheDocument();
    await user.click(screen.getByTestId('save-settings'));

    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({
      changes: {
        'payments.promptpay_id': '0899999999',
        'notify.smtp.host': 'mail.raceshot.app',
        'notify.smtp.password': 'n3w-pass',
      },
    });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(field('notify.smtp.host')).toHaveValue('mail.raceshot.app');
    // The secret is stored, never shown: its input is empty again.
    expect(field('notify.smtp.password')).toHaveValue('');
    expect(screen.getByTestId('setting-badges-notify.smtp.password')).toHaveTextContent('Set in the console');
    // The answer is the settings in force: no second read.
    expect(calls.filter((c) => c.key === 'GET /api/admin/settings')).toHaveLength(1);
  });

  it('sends nothing for a secret left empty, and makes no call when nothing changed', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/settings': inForce, 'PUT /api/admin/settings': inForce });
    const user = await openForm();

    // Typed, then emptied again: the stored secret stays.
    await user.type(field('payments.gbp.token'), 'abc');
    await user.clear(field('payments.gbp.token'));
    await user.click(screen.getByTestId('save-settings'));
    expect(await screen.findByText('Nothing has changed yet.')).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);

    await retype(user, 'orders.retention_days', '120');
    await user.click(screen.getByTestId('save-settings'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ changes: { 'orders.retention_days': '120' } });
  });

  it('sends null for "clear" on a secret and "use server configuration" on a value', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/settings': inForce,
      'PUT /api/admin/settings': withValues({
        'payments.opn.secret_key': { set: false, from_console: false },
        'orders.retention_days': { value: '30', from_console: false },
      }),
    });
    const user = await openForm();

    await user.click(screen.getByTestId('setting-clear-payments.opn.secret_key'));
    expect(field('payments.opn.secret_key')).toBeDisabled();
    expect(screen.getByText(/the console’s value is cleared/)).toBeInTheDocument();
    await user.click(screen.getByTestId('setting-reset-orders.retention_days'));
    expect(field('orders.retention_days')).toBeDisabled();
    // Undo takes a reset back.
    await user.click(screen.getByTestId('setting-reset-payments.promptpay_id'));
    await user.click(screen.getByTestId('setting-undo-payments.promptpay_id'));
    expect(field('payments.promptpay_id')).toBeEnabled();

    await user.click(screen.getByTestId('save-settings'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({
      changes: { 'payments.opn.secret_key': null, 'orders.retention_days': null },
    });
    await screen.findByText('Settings saved');
    expect(field('orders.retention_days')).toHaveValue('30');
    expect(field('orders.retention_days')).toBeEnabled();
    expect(screen.getByTestId('setting-badges-payments.opn.secret_key')).toHaveTextContent('Not set');
    expect(screen.queryByTestId('setting-clear-payments.opn.secret_key')).not.toBeInTheDocument();
  });

  it('warns before switching the payment gateway and sends it only once confirmed', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/settings': inForce,
      'PUT /api/admin/settings': withValues({ 'payments.gateway': { value: 'OPN', from_console: true } }),
    });
    const user = await openForm();

    await user.selectOptions(field('payments.gateway'), 'OPN');
    expect(screen.getByTestId('gateway-warning')).toHaveTextContent(
      'New orders will use OPN (Omise); orders already begun keep theirs.',
    );
    await user.click(screen.getByTestId('save-settings'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Switch the payment gateway?');
    expect(dialog).toHaveTextContent('New orders will use OPN (Omise); orders already begun keep theirs.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(puts(calls)).toHaveLength(0);
    expect(field('payments.gateway')).toHaveValue('OPN');

    await user.click(screen.getByTestId('save-settings'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch and save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ changes: { 'payments.gateway': 'OPN' } });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.queryByTestId('gateway-warning')).not.toBeInTheDocument();
  });

  it('shows each of the server’s problems next to its own input, and a summary', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/settings': inForce,
      'PUT /api/admin/settings': errorAnswer(422, 'invalid_field', {
        body: {
          field: 'notify.smtp.port',
          errors: [
            { field: 'notify.smtp.port', message: 'must be a port number (1 to 65535)' },
            { field: 'orders.retention_days', message: 'must be a whole number of days' },
          ],
        },
      }),
    });
    const user = await openForm();

    await retype(user, 'notify.smtp.port', '99999');
    await retype(user, 'orders.retention_days', 'ten');
    await user.click(screen.getByTestId('save-settings'));

    const portError = await screen.findByTestId('setting-error-notify.smtp.port');
    expect(portError).toHaveTextContent('must be a port number (1 to 65535)');
    expect(field('notify.smtp.port').closest('.field')).toContainElement(portError);
    expect(field('notify.smtp.port')).toHaveAttribute('aria-invalid', 'true');
    expect(field('notify.smtp.port').getAttribute('aria-describedby')).toContain(portError.id);
    const daysError = screen.getByTestId('setting-error-orders.retention_days');
    expect(daysError).toHaveTextContent('must be a whole number of days');
    expect(field('orders.retention_days').closest('.field')).toContainElement(daysError);
    expect(screen.queryByTestId('setting-error-notify.smtp.host')).not.toBeInTheDocument();

    const summary = screen.getByTestId('settings-errors');
    expect(summary).toHaveTextContent('Not saved. Please fix these 2 problems');
    expect(within(summary).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'SMTP port: must be a port number (1 to 65535)',
      'Days kept after the event: must be a whole number of days',
    ]);
    // The edits stay for fixing; changing a field takes its problem away.
    expect(field('orders.retention_days')).toHaveValue('ten');
    await user.type(field('notify.smtp.port'), '{Backspace}');
    expect(screen.queryByTestId('setting-error-notify.smtp.port')).not.toBeInTheDocument();
    expect(screen.getByTestId('setting-error-orders.retention_days')).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(1);
  });

  it('shows a refusal naming a single field beside that field too', async () => {
    fakeFetch({
      'GET /api/admin/settings': inForce,
      'PUT /api/admin/settings': errorAnswer(422, 'invalid_field', {
        body: { field: 'payments.gateway', message: 'OPN needs its secret key' },
      }),
    });
    const user = await openForm();
    await user.selectOptions(field('payments.gateway'), 'OPN');
    await user.click(screen.getByTestId('save-settings'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch and save' }));
    expect(await screen.findByTestId('setting-error-payments.gateway')).toHaveTextContent('OPN needs its secret key');
  });

  it('refuses a text file as the logo without a call, and PUTs an image as its bytes', async () => {
    const { fn, calls } = fakeFetch({ 'GET /api/admin/settings': inForce });
    const fallback = fn;
    const uploads: { type: string | null; bytes: number[] }[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      if (req.method === 'PUT' && new URL(req.url).pathname === '/api/admin/settings/logo') {
        uploads.push({ type: req.headers.get('content-type'), bytes: [...new Uint8Array(await req.arrayBuffer())] });
        return new Response(null, { status: 204 });
      }
      return fallback(input, init);
    });
    const user = await openForm({ applyAccept: false });

    const input = screen.getByTestId('logo-input');
    await user.upload(input, new File(['not a picture'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByTestId('logo-error')).toHaveTextContent(
      'notes.txt is not a PNG or JPEG image, so it was not uploaded.',
    );
    // A picture's name and type do not make it one.
    await user.upload(input, new File(['still text'], 'fake.png', { type: 'image/png' }));
    expect(await screen.findByTestId('logo-error')).toHaveTextContent('fake.png is not a PNG or JPEG image');
    expect(uploads).toHaveLength(0);

    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82];
    await user.upload(input, new File([new Uint8Array(png)], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo uploaded')).toBeInTheDocument();
    expect(uploads).toEqual([{ type: 'image/png', bytes: png }]);
    expect(screen.queryByTestId('logo-error')).not.toBeInTheDocument();
    // The preview asks for the new logo, past the browser's cache.
    expect(screen.getByRole('img', { name: 'The shop’s current logo' }).getAttribute('src')).toMatch(
      /^\/api\/admin\/settings\/logo\?v=\d+$/,
    );
    // `shop_logo` is read again.
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/admin/settings')).toHaveLength(2));
  });

  it('refuses a logo over 2 MB without a call, and shows the server’s refusal of an upload', async () => {
    const { fn } = fakeFetch({ 'GET /api/admin/settings': { ...inForce, shop_logo: false } });
    const uploads: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      if (req.method === 'PUT' && new URL(req.url).pathname === '/api/admin/settings/logo') {
        uploads.push(req.url);
        return errorResponse(415, 'unsupported_image_type');
      }
      return fn(input, init);
    });
    const user = await openForm();
    expect(screen.getByTestId('logo-preview')).toHaveTextContent('No logo yet');

    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    await user.upload(screen.getByTestId('logo-input'), new File([big], 'huge.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByTestId('logo-error')).toHaveTextContent('huge.jpg is larger than 2 MB');
    expect(uploads).toHaveLength(0);

    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    await user.upload(screen.getByTestId('logo-input'), new File([jpeg], 'logo.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByTestId('logo-error')).toHaveTextContent('Please use a jpg or png file only.');
    expect(uploads).toHaveLength(1);
  });

  it('sends a test message through the chosen channel and says what became of it', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/settings': inForce,
      'POST /api/admin/messages/trial': (body: unknown) =>
        (body as { channel: string }).channel === 'sms'
          ? errorResponse(503, 'unavailable', { body: { message: 'the provider refused the test message: HTTP 401' } })
          : { outcome: 'sent' },
    });
    const user = userEvent.setup();
    renderPage();
    const form = await screen.findByTestId('trial-form');
    await user.selectOptions(within(form).getByTestId('trial-channel'), 'line');
    await user.type(within(form).getByTestId('trial-to'), ' U4af4980629a0b0c0d0e0f0a0b0c0d0e0 ');
    await user.click(within(form).getByTestId('trial-send'));
    expect(await within(form).findByTestId('trial-outcome')).toHaveTextContent('The provider took the message.');
    expect(calls.find((c) => c.key === 'POST /api/admin/messages/trial')!.body).toEqual({
      channel: 'line',
      to: 'U4af4980629a0b0c0d0e0f0a0b0c0d0e0',
    });
    await user.selectOptions(within(form).getByTestId('trial-channel'), 'sms');
    await user.click(within(form).getByTestId('trial-send'));
    expect(await within(form).findByTestId('trial-error')).toBeInTheDocument();
  });

  it('shows a photographer the forbidden text', async () => {
    fakeFetch({ 'GET /api/admin/settings': errorAnswer(403, 'forbidden') });
    renderPage();
    expect(await screen.findByTestId('settings-load-error')).toHaveTextContent('This account may not do that.');
    expect(screen.queryByTestId('settings-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('logo-input')).not.toBeInTheDocument();
  });

  it('speaks Thai by default', async () => {
    fakeFetch({ 'GET /api/admin/settings': inForce });
    renderWithProviders(<SettingsPage />, { path: '/admin/settings', route: '/admin/settings' });
    await screen.findByTestId('settings-form');
    expect(screen.getByRole('heading', { name: 'ตั้งค่าร้าน' })).toBeInTheDocument();
    expect(screen.getByTestId('setting-badges-payments.gbp.token')).toHaveTextContent('ตั้งค่าแล้ว');
    expect(screen.getByTestId('save-settings')).toHaveTextContent('บันทึกการตั้งค่า');
  });
  it('names the face models in use and warns while they may not be sold with', async () => {
    fakeFetch({ 'GET /api/admin/settings': inForce });
    renderPage();
    const models = await screen.findByTestId('face-models');
    expect(models).toHaveTextContent('In use: InsightFace SCRFD-500M + w600k_mbf: non-commercial research use only');
    expect(screen.getByTestId('face-models-warning')).toHaveTextContent('licensed for non-commercial research only');
  });

  it('shows no warning for the pair a shop may sell with', async () => {
    const commercial = {
      ...inForce,
      face_models: {
        pair: 'yunet-sface',
        licence: 'OpenCV Zoo YuNet (MIT) + SFace (Apache-2.0): commercial use allowed',
        commercial: true,
      },
    };
    fakeFetch({ 'GET /api/admin/settings': commercial });
    renderPage();
    expect(await screen.findByTestId('face-models')).toHaveTextContent('commercial use allowed');
    expect(screen.queryByTestId('face-models-warning')).not.toBeInTheDocument();
  });
});
