//! Console sign-in: the body sent, where success leads (`next` only inside the console),
//! the texts of refused sign-ins, and an operator already signed in.

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { LoginPage } from './LoginPage';
import { adminMe, signedOut } from '../shell/testing';

function renderLogin(route = '/admin/login') {
  return renderWithProviders(<LoginPage />, {
    lang: 'en',
    path: '/admin/login',
    route,
    routes: [{ path: '/admin/*', element: <p>console page</p> }],
  });
}

async function signIn(email = 'boss@raceshot.app', password = 'correct horse') {
  const user = userEvent.setup();
  await user.type(screen.getByTestId('login-email'), email);
  await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
}

afterEach(() => vi.unstubAllGlobals());

describe('LoginPage', () => {
  it('signs in and goes to the console page in ?next=', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/me': signedOut, 'POST /api/admin/login': adminMe });
    const { router } = renderLogin('/admin/login?next=%2Fadmin%2Faudit');
    await signIn(' boss@raceshot.app ');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/audit'));
    expect(calls.find((c) => c.key === 'POST /api/admin/login')?.body).toEqual({
      email: 'boss@raceshot.app',
      password: 'correct horse',
    });
    expect(await screen.findByText('console page')).toBeInTheDocument();
  });

  it('goes to /admin when next leads outside the console', async () => {
    fakeFetch({ 'GET /api/admin/me': signedOut, 'POST /api/admin/login': adminMe });
    const { router } = renderLogin('/admin/login?next=https%3A%2F%2Fevil.example%2Fadmin');
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it('says the e-mail or password is wrong', async () => {
    fakeFetch({ 'GET /api/admin/me': signedOut, 'POST /api/admin/login': errorAnswer(401, 'invalid_credentials') });
    const { router } = renderLogin();
    await signIn('boss@raceshot.app', 'wrong');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Wrong e-mail or password.');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(screen.getByTestId('login-password')).toHaveValue('');
  });

  it('says the account is locked and when to try again', async () => {
    fakeFetch({
      'GET /api/admin/me': signedOut,
      'POST /api/admin/login': errorAnswer(429, 'account_locked', { headers: { 'Retry-After': '600' } }),
    });
    renderLogin();
    await signIn();
    const error = await screen.findByTestId('login-error');
    expect(error).toHaveTextContent('the account is locked for a while');
    expect(error).toHaveTextContent('in about 10 min');
  });

  it('shows the lock in Thai after switching the language', async () => {
    fakeFetch({
      'GET /api/admin/me': signedOut,
      'POST /api/admin/login': errorAnswer(429, 'account_locked', { headers: { 'Retry-After': '90' } }),
    });
    renderLogin();
    await userEvent.setup().click(screen.getByTestId('admin-lang-th'));
    expect(screen.getByTestId('login-submit')).toHaveTextContent('เข้าสู่ระบบ');
    await signIn();
    const error = await screen.findByTestId('login-error');
    expect(error).toHaveTextContent('บัญชีถูกล็อกชั่วคราว');
    expect(error).toHaveTextContent('อีกประมาณ 2 นาที');
  });

  it('says to slow down when rate limited', async () => {
    fakeFetch({ 'GET /api/admin/me': signedOut, 'POST /api/admin/login': errorAnswer(429, 'rate_limited') });
    renderLogin();
    await signIn();
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Too many requests.');
  });

  it('sends an operator already signed in to the console', async () => {
    fakeFetch({ 'GET /api/admin/me': adminMe });
    const { router } = renderLogin();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });
});
