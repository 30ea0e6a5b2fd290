//! The console's frame: it signs the visitor in first (GET
//! /api/admin/me; signed out → the sign-in page, remembering where they were), then draws
//! the header (who is signed in, language, dark mode, notifications, sign-out), the sidebar
//! with its bookmarks, and the page. Any console call answering 401 later sends the
//! visitor to sign in again.

import './admin-shell.css';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { useDictionary } from '@/i18n';
import { usePinned } from './bookmarks';
import { DarkModeToggle, LanguageSwitch } from './controls';
import { shellMessages, type ShellMessageKey } from './messages';
import { RetryAlert } from './RetryAlert';
import { Notifications } from './Notifications';
import { adminKeys, fetchMe, signOut } from './api';
import { OperatorProvider, useSessionCheck } from './operator';
import { isAdmin, isSignedOut, loginPath } from './session';
import type { Me } from './types';
import { rootClass, useAdminTheme } from './theme';

type NavItem = { id: string; path: string; label: ShellMessageKey; adminOnly?: boolean; end?: boolean };

const NAV_ITEMS: NavItem[] = [
  { id: 'dashboard', path: '/admin', label: 'shell.menu.dashboard', end: true },
  { id: 'events', path: '/admin/events', label: 'shell.menu.events' },
  { id: 'orders', path: '/admin/orders', label: 'shell.menu.orders', adminOnly: true },
  { id: 'audit', path: '/admin/audit', label: 'shell.menu.audit', adminOnly: true },
  { id: 'privacy', path: '/admin/privacy', label: 'shell.menu.privacy', adminOnly: true },
  { id: 'uploads', path: '/admin/uploads', label: 'shell.menu.uploads' },
  { id: 'settings', path: '/admin/settings', label: 'shell.menu.settings', adminOnly: true },
  { id: 'shop', path: '/', label: 'shell.menu.shop', end: true },
];

function roleKey(role: string): ShellMessageKey | null {
  if (role === 'admin') return 'shell.role.admin';
  if (role === 'photographer') return 'shell.role.photographer';
  return null;
}

/** Any console query or mutation that finds the session gone asks `me` again, which then
 * leads to the sign-in page through the guard below: one way out, whichever page noticed
 * first, and no page needs its own. */
function useSignedOutWatcher() {
  const client = useQueryClient();
  const recheck = useSessionCheck();
  useEffect(() => {
    const offQueries = client.getQueryCache().subscribe((event) => {
      if (
        event.type === 'updated' &&
        event.action.type === 'error' &&
        isSignedOut(event.action.error) &&
        (event.query.queryKey as QueryKey)[1] !== adminKeys.me[1]
      ) {
        recheck();
      }
    });
    const offMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && isSignedOut(event.action.error)) recheck();
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [client, recheck]);
}

function NavRow({
  item,
  pinned,
  onToggle,
  onNavigate,
  section,
}: {
  item: NavItem;
  pinned: boolean;
  onToggle: () => void;
  onNavigate: () => void;
  section: 'bookmarks' | 'menu';
}) {
  const t = useDictionary(shellMessages);
  const name = t(item.label);
  return (
    <li className="admin-nav-row">
      <NavLink to={item.path} end={item.end} onClick={onNavigate} className="admin-nav-link">
        {name}
      </NavLink>
      <button
        type="button"
        className={`admin-pin${pinned ? ' admin-pinned' : ''}`}
        aria-pressed={pinned}
        aria-label={t(pinned ? 'shell.menu.unpin' : 'shell.menu.pin', { name })}
        title={t(pinned ? 'shell.menu.unpin' : 'shell.menu.pin', { name })}
        data-testid={section === 'menu' ? `pin-${item.id}` : `bookmark-pin-${item.id}`}
        onClick={onToggle}
      >
        <span aria-hidden="true">{pinned ? '★' : '☆'}</span>
      </button>
    </li>
  );
}

function Sidebar({ me, open, onNavigate }: { me: Me; open: boolean; onNavigate: () => void }) {
  const t = useDictionary(shellMessages);
  const { pinned, toggle } = usePinned();
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onNavigate();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onNavigate]);
  const items = NAV_ITEMS.filter((i) => !i.adminOnly || isAdmin(me));
  // Pinning order; pages this operator may not open stay pinned but are not shown.
  const bookmarks = pinned.map((p) => items.find((i) => i.path === p)).filter((i): i is NavItem => !!i);
  return (
    <nav
      id="admin-sidebar"
      className={`admin-sidebar${open ? ' admin-open' : ''}`}
      aria-label={t('shell.menu.label')}
      data-testid="admin-sidebar"
    >
      <button
        type="button"
        className="admin-icon-button admin-sidebar-close"
        aria-label={t('shell.menu.close')}
        onClick={onNavigate}
      >
        <span aria-hidden="true">✕</span>
      </button>
      {bookmarks.length > 0 && (
        <section className="admin-nav-section" data-testid="admin-bookmarks">
          <h2>{t('shell.menu.bookmarks')}</h2>
          <ul>
            {bookmarks.map((item) => (
              <NavRow
                key={item.id}
                item={item}
                pinned
                section="bookmarks"
                onToggle={() => toggle(item.path)}
                onNavigate={onNavigate}
              />
            ))}
          </ul>
        </section>
      )}
      <section className="admin-nav-section">
        <h2>{t('shell.menu.pages')}</h2>
        <ul>
          {items.map((item) => (
            <NavRow
              key={item.id}
              item={item}
              pinned={pinned.includes(item.path)}
              section="menu"
              onToggle={() => toggle(item.path)}
              onNavigate={onNavigate}
            />
          ))}
        </ul>
      </section>
    </nav>
  );
}

function Header({
  me,
  menuOpen,
  onMenu,
  onLogout,
  loggingOut,
}: {
  me: Me;
  menuOpen: boolean;
  onMenu: () => void;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  const t = useDictionary(shellMessages);
  const role = roleKey(me.role);
  const roleText = role ? t(role) : me.role;
  return (
    <header className="admin-header">
      <button
        type="button"
        className="admin-icon-button admin-menu-toggle"
        aria-label={t(menuOpen ? 'shell.menu.close' : 'shell.menu.open')}
        aria-expanded={menuOpen}
        aria-controls="admin-sidebar"
        data-testid="admin-menu-toggle"
        onClick={onMenu}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <Link to="/admin" className="admin-brand">
        {t('shell.product')} <span className="admin-brand-console">{t('shell.console')}</span>
      </Link>
      <div className="admin-header-actions">
        <span
          className="admin-user"
          title={t('shell.signedInAs', { email: me.email, role: roleText })}
          data-testid="admin-user"
        >
          <span className="admin-user-email">{me.email}</span>
          <span className="admin-role">{roleText}</span>
        </span>
        <LanguageSwitch />
        <DarkModeToggle />
        <Notifications me={me} />
        <button
          type="button"
          className="btn btn-secondary btn-small admin-logout"
          data-testid="logout"
          disabled={loggingOut}
          onClick={onLogout}
        >
          {t('shell.logout')}
        </button>
      </div>
    </header>
  );
}

export function AdminLayout() {
  const t = useDictionary(shellMessages);
  const client = useQueryClient();
  const { pathname, search } = useLocation();
  const { dark } = useAdminTheme();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useSignedOutWatcher();

  const me = useQuery({ queryKey: adminKeys.me, queryFn: fetchMe, enabled: !signedOut });
  const logout = useMutation({
    mutationFn: signOut,
    onSettled: () => {
      setSignedOut(true);
      // Nothing of this operator's may show to whoever signs in next on this browser.
      client.removeQueries({ queryKey: adminKeys.all });
    },
  });

  if (signedOut) return <Navigate to="/admin/login" replace />;

  if (me.isPending) {
    return (
      <div className={rootClass(dark)}>
        <Spinner label={t('shell.loading')} />
      </div>
    );
  }

  if (me.isError) {
    if (isSignedOut(me.error)) return <Navigate to={loginPath(pathname + search)} replace />;
    return (
      <div className={rootClass(dark)}>
        <div className="admin-page">
          <RetryAlert query={me} />
        </div>
      </div>
    );
  }

  const operator = me.data;
  return (
    <div className={rootClass(dark)} data-testid="admin-root">
      <Header
        me={operator}
        menuOpen={menuOpen}
        onMenu={() => setMenuOpen((o) => !o)}
        onLogout={() => logout.mutate()}
        loggingOut={logout.isPending}
      />
      <div className="admin-body">
        <Sidebar me={operator} open={menuOpen} onNavigate={closeMenu} />
        {menuOpen && <div className="admin-scrim" onClick={closeMenu} aria-hidden="true" />}
        <main className="admin-main">
          <OperatorProvider me={operator}>
            <Suspense fallback={<Spinner label={t('shell.loading')} />}>
              <Outlet />
            </Suspense>
          </OperatorProvider>
        </main>
      </div>
    </div>
  );
}
