//! The console's sign-in page (`/admin/login`, outside the frame): e-mail and password; on
//! success back to the console page the visitor came from (`?next=`, console pages only).
//! A locked account says when it may try again, from the server's Retry-After.

import '../shell/admin-shell.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { InputField } from '@/components/InputField';
import { useDictionary, useLanguage } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { adminKeys, fetchMe } from '../shell/api';
import { DarkModeToggle, LanguageSwitch } from '../shell/controls';
import { shellMessages } from '../shell/messages';
import { LoginFailure, safeNext } from '../shell/session';
import { rootClass, useAdminTheme } from '../shell/theme';
import { signIn } from './api';
import { authMessages } from './messages';

/** When a refused sign-in may be tried again, or null when the server did not say. */
function retryAt(e: unknown): { at: Date; minutes: number } | null {
  if (!(e instanceof LoginFailure) || e.retryAfterSeconds === null || e.retryAt === null) return null;
  if (e.code !== 'account_locked' && e.code !== 'rate_limited') return null;
  return { at: e.retryAt, minutes: Math.max(1, Math.ceil(e.retryAfterSeconds / 60)) };
}

export function LoginPage() {
  const t = useDictionary(authMessages);
  const shell = useDictionary(shellMessages);
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

  const submit = (e: SyntheticEvent) => {
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
          {shell('shell.product')} <span className="admin-brand-console">{shell('shell.console')}</span>
        </h1>
        <h2 className="admin-login-title">{t('adminAuth.title')}</h2>
        <form onSubmit={submit} className="admin-form">
          <InputField
            id="admin-login-email"
            label={t('adminAuth.email')}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="login-email"
          />
          <InputField
            id="admin-login-password"
            label={t('adminAuth.password')}
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
                  {t('adminAuth.retryAt', {
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
            {t(login.isPending ? 'adminAuth.submitting' : 'adminAuth.submit')}
          </button>
        </form>
        <p className="center">
          <Link to="/">{t('adminAuth.backToShop')}</Link>
        </p>
      </main>
    </div>
  );
}
