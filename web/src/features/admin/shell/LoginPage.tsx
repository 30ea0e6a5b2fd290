//! The console's sign-in page (`/admin/login`, outside the frame): e-mail and password; on
//! success back to the console page the visitor came from (`?next=`, console pages only).
//! A locked account says when it may try again, from the server's Retry-After.

import './admin-shell.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { InputField } from '@/components/InputField';
import { useDictionary, useLanguage } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { adminKeys, fetchMe, signIn } from './api';
import { DarkModeToggle, LanguageSwitch } from './controls';
import { shellMessages } from './messages';
import { LoginFailure, safeNext } from './session';
import { rootClass, useAdminTheme } from './theme';

/** When a refused sign-in may be tried again, or null when the server did not say. */
function retryAt(e: unknown): { at: Date; minutes: number } | null {
  if (!(e instanceof LoginFailure) || e.retryAfterSeconds === null || e.retryAt === null) return null;
  if (e.code !== 'account_locked' && e.code !== 'rate_limited') return null;
  return { at: e.retryAt, minutes: Math.max(1, Math.ceil(e.retryAfterSeconds / 60)) };
}

export function LoginPage() {
  const t = useDictionary(shellMessages);
  const errorText = useErrorText();
  const [lang] = useLanguage();
  const { dark } = useAdminTheme();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  // Asked afresh every time: a remembered answer could be from a session that has ended.
  const me = useQuery({ queryKey: adminKeys.me, queryFn: fetchMe, retry: false, staleTime: 0, refetchOnMount: 'always' });
  const login = useMutation({
    mutationFn: signIn,
    onSuccess: (signedIn) => {
      client.removeQueries({ queryKey: adminKeys.all });
      client.setQueryData(adminKeys.me, signedIn);
      void navigate(next, { replace: true });
    },
    onError: () => setPassword(''),
  });

  if (me.isSuccess && !me.isFetching && !login.isSuccess) return <Navigate to={next} replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ email: email.trim(), password });
  };
  const retry = login.isError ? retryAt(login.error) : null;

  return (
    <div className={`${rootClass(dark)} admin-login-root`}>
      <div className="admin-login-tools">
        <LanguageSwitch />
        <DarkModeToggle />
      </div>
      <main className="admin-login card">
        <h1>
          {t('shell.product')} <span className="admin-brand-console">{t('shell.console')}</span>
        </h1>
        <h2 className="admin-login-title">{t('shell.login.title')}</h2>
        <form onSubmit={submit} className="admin-form">
          <InputField
            id="admin-login-email"
            label={t('shell.login.email')}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="login-email"
          />
          <InputField
            id="admin-login-password"
            label={t('shell.login.password')}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-testid="login-password"
          />
          {login.isError && (
            <div className="alert alert-danger admin-login-error" role="alert" data-testid="login-error">
              <p>{errorText(login.error)}</p>
              {retry && (
                <p>
                  {t('shell.login.retryAt', {
                    time: formatBangkokDateTime(retry.at.toISOString(), lang),
                    minutes: retry.minutes,
                  })}
                </p>
              )}
            </div>
          )}
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={login.isPending}
            data-testid="login-submit"
          >
            {t(login.isPending ? 'shell.login.submitting' : 'shell.login.submit')}
          </button>
        </form>
        <p className="center">
          <Link to="/">{t('shell.login.backToShop')}</Link>
        </p>
      </main>
    </div>
  );
}
