//! Upload tokens page: the list with each token's state and last use, a new token's secret
//! shown once, an admin naming another account, a bad label refused before any call, and
//! revoking after a confirmation.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '@/test/render';
import { UploadTokensPage } from './UploadTokensPage';
import { adminMe, noContent, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';
import type { UploadToken } from './api';

function token(id: number, fields: Partial<UploadToken> = {}): UploadToken {
  return {
    id,
    account_email: 'cam@raceshot.app',
    label: `camera ${id}`,
    hint: 'x9Zq',
    created_at: '2026-11-20T06:30:00+07:00',
    last_used_at: null,
    revoked_at: null,
    ...fields,
  };
}

const created = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 201, headers: { 'content-type': 'application/json' } });

function renderPage(me: Me = adminMe) {
  return renderAsOperator(<UploadTokensPage />, { me, lang: 'en', path: '/admin/uploads', route: '/admin/uploads' });
}

afterEach(() => vi.unstubAllGlobals());

describe('UploadTokensPage', () => {
  it('lists tokens with their last use and state', async () => {
    fakeFetch({
      'GET /api/admin/upload-tokens': {
        tokens: [
          token(2, { last_used_at: '2026-11-21T07:05:00+07:00' }),
          token(1, { revoked_at: '2026-11-22T08:00:00+07:00' }),
        ],
      },
    });
    renderPage();
    const rows = await screen.findAllByTestId('upload-token-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('camera 2');
    expect(rows[0]).toHaveTextContent('…x9Zq');
    expect(rows[0]).toHaveTextContent('21 Nov 2026, 07:05');
    expect(within(rows[0]!).getByTestId('upload-token-state')).toHaveTextContent('Live');
    expect(within(rows[1]!).getByTestId('upload-token-state')).toHaveTextContent('Revoked 22 Nov 2026, 08:00');
    expect(within(rows[1]!).queryByTestId('upload-token-revoke')).not.toBeInTheDocument();
  });

  it("shows a new token's secret once; an admin may name another account", async () => {
    let listed: UploadToken[] = [];
    const { calls } = fakeFetch({
      'GET /api/admin/upload-tokens': () => ({ tokens: listed }),
      'POST /api/admin/upload-tokens': () => {
        listed = [token(5, { label: 'Nikon Z6' })];
        return created({ secret: 'rsu_0123456789abcdef', token: listed[0] });
      },
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByTestId('upload-tokens-empty')).toBeInTheDocument();
    await user.type(screen.getByTestId('upload-token-label'), ' Nikon Z6 ');
    await user.type(screen.getByTestId('upload-token-account'), 'cam@raceshot.app');
    await user.click(screen.getByTestId('upload-token-create'));
    expect(await screen.findByTestId('upload-token-secret-value')).toHaveTextContent('rsu_0123456789abcdef');
    expect(calls.find((c) => c.key === 'POST /api/admin/upload-tokens')?.body).toEqual({
      label: 'Nikon Z6',
      account_email: 'cam@raceshot.app',
    });
    expect(await screen.findByText('Nikon Z6', { selector: 'td' })).toBeInTheDocument();
    expect(screen.getByTestId('upload-token-label')).toHaveValue('');
  });

  it('refuses an empty label without asking the server; photographers name no account', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/upload-tokens': { tokens: [] } });
    const user = userEvent.setup();
    renderPage(photographerMe);
    await screen.findByTestId('upload-tokens-empty');
    expect(screen.queryByTestId('upload-token-account')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('upload-token-create'));
    expect(screen.getByTestId('upload-token-problem')).toHaveTextContent('A label of 1 to 60 characters');
    expect(calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('revokes a token after confirming', async () => {
    let revoked = false;
    const { calls } = fakeFetch({
      'GET /api/admin/upload-tokens': () => ({
        tokens: [token(3, revoked ? { revoked_at: '2026-11-25T09:00:00+07:00' } : {})],
      }),
      'DELETE /api/admin/upload-tokens/3': () => {
        revoked = true;
        return noContent();
      },
    });
    const user = userEvent.setup();
    renderPage(photographerMe);
    await user.click(await screen.findByTestId('upload-token-revoke'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('camera 3');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(/Revoked 25 Nov 2026/)).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'DELETE /api/admin/upload-tokens/3')).toBe(true);
  });
});
