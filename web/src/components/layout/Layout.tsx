//! The shop's frame: header with logo, language switcher and cart count;
//! a side menu; the footer's links; a back-to-top button after 600 px of scrolling.

import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useT } from '@/i18n';
import { useCart, useCartCertificate } from '@/lib/cart';
import { BACK_TO_TOP_AFTER_PX } from '@/lib/constants';
import { LanguageSwitcher } from '../LanguageSwitcher';
import { Spinner } from '../Spinner';
import { footerLinks, sideMenu } from './menu';
import { MenuLink } from './MenuLink';

function CartIcon() {
  const t = useT();
  // The standard cart's finisher certificate counts as one item of it.
  const standard = useCart('standard').length + (useCartCertificate() ? 1 : 0);
  const count = standard + useCart('wholesale').length;
  const to = standard === 0 && count > 0 ? '/cart-wholesale' : '/cart';
  // The visible count is part of the name, outside parentheses (WCAG 2.5.3, label in name:
  // axe reads a parenthesised part as an aside).
  return (
    <Link to={to} className="cart-icon" aria-label={t('header.cart', { count })} data-testid="cart-icon">
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM7.2 14h9.9c.8 0 1.4-.4 1.7-1.1L22 6H5.2l-.9-2H1v2h2l3.6 7.6L5.2 16c-.7 1.3.3 3 1.8 3h12v-2H7l1.1-2Z"
        />
      </svg>
      <span className="cart-count" data-testid="cart-count">
        {count}
      </span>
    </Link>
  );
}

function BackToTop() {
  const t = useT();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > BACK_TO_TOP_AFTER_PX);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="back-to-top"
      aria-label={t('backToTop')}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      ↑
    </button>
  );
}

export function Layout() {
  const t = useT();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="app">
      <header className="header">
        <button
          type="button"
          className="menu-button"
          aria-label={t(menuOpen ? 'menu.close' : 'menu.open')}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((o) => !o)}
        >
          ☰
        </button>
        <Link to="/" className="logo">
          <img src="/logo.svg" alt="" width="32" height="32" />
          <span>{t('app.name')}</span>
        </Link>
        <div className="header-actions">
          <LanguageSwitcher />
          <CartIcon />
        </div>
      </header>
      <nav className={`side-menu${menuOpen ? ' open' : ''}`} aria-label={t('menu.open')}>
        <ul>
          {sideMenu.map((item, i) => (
            <li key={i}>
              <MenuLink item={item} onNavigate={() => setMenuOpen(false)} />
            </li>
          ))}
        </ul>
      </nav>
      {menuOpen && <div className="scrim" onClick={() => setMenuOpen(false)} />}
      <main className="main">
        <Suspense fallback={<Spinner label={t('loading')} />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="footer">
        <ul className="footer-links">
          {footerLinks.map((item, i) => (
            <li key={i}>
              <MenuLink item={item} />
            </li>
          ))}
        </ul>
        <p>{t('footer.provider')}</p>
        <p className="muted">{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </footer>
      <BackToTop />
    </div>
  );
}
