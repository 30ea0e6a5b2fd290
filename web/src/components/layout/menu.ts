//! The side menu and footer links, as data. An item is a heading, a sub-menu, an in-app
//! link, an external link, or an external link in a new tab.

import type { MessageKey } from '@/i18n';
import { PHOTOGRAPHER_SITE } from '@/lib/constants';

export type MenuItem =
  | { type: 'headtitle'; title: MessageKey }
  | { type: 'link'; title: MessageKey; path: string }
  | { type: 'extLink' | 'extTabLink'; title: MessageKey; path: string }
  | { type: 'sub'; title: MessageKey; children: MenuItem[] };

export const sideMenu: MenuItem[] = [
  { type: 'headtitle', title: 'app.name' },
  { type: 'link', title: 'menu.events', path: '/' },
  { type: 'link', title: 'menu.howToOrder', path: '/how-to-order' },
  { type: 'link', title: 'menu.cart', path: '/cart' },
  { type: 'link', title: 'menu.findOrder', path: '/find-order' },
  { type: 'link', title: 'menu.about', path: '/about' },
  { type: 'extTabLink', title: 'menu.photographer', path: PHOTOGRAPHER_SITE },
];

export const footerLinks: MenuItem[] = [
  { type: 'extTabLink', title: 'menu.photographer', path: PHOTOGRAPHER_SITE },
  { type: 'link', title: 'menu.howToOrder', path: '/how-to-order' },
  { type: 'link', title: 'menu.findOrder', path: '/find-order' },
  { type: 'link', title: 'menu.cart', path: '/cart' },
  { type: 'link', title: 'menu.about', path: '/about' },
  { type: 'link', title: 'menu.refundPolicy', path: '/refund-policy' },
  { type: 'link', title: 'menu.termsOfUse', path: '/terms-of-use' },
  { type: 'link', title: 'menu.howToUse', path: '/how-to-use' },
  { type: 'link', title: 'menu.home', path: '/' },
];
