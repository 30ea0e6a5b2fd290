//! Every route of spec §2. Pages load on demand (one chunk per feature page), so the first
//! visit downloads only the shell and the page it opens. Legacy addresses lead to the
//! page that replaced them.

import { Navigate, useParams, type RouteObject } from 'react-router';
import { Layout } from '@/components/layout/Layout';
import { NotFoundPage } from './NotFoundPage';

/** Sends `/{prefix}/{param}` style legacy paths to their new address. */
function Redirect({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

/** The operator console (`/admin`): its own frame, loaded only when opened. */
const consoleRoutes: RouteObject[] = [
  {
    path: 'admin/login',
    lazy: () => import('@/features/admin/shell/LoginPage').then((m) => ({ Component: m.LoginPage })),
  },
  {
    path: 'admin',
    lazy: () => import('@/features/admin/shell/AdminLayout').then((m) => ({ Component: m.AdminLayout })),
    children: [
      { index: true, lazy: () => import('@/features/admin/shell/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
      { path: 'audit', lazy: () => import('@/features/admin/shell/AuditPage').then((m) => ({ Component: m.AuditPage })) },
      { path: 'events', lazy: () => import('@/features/admin/events/EventsPage').then((m) => ({ Component: m.EventsPage })) },
      {
        path: 'events/new',
        lazy: () => import('@/features/admin/events/EventFormPage').then((m) => ({ Component: m.EventFormPage })),
      },
      {
        path: 'events/:eventKey/edit',
        lazy: () => import('@/features/admin/events/EventFormPage').then((m) => ({ Component: m.EventFormPage })),
      },
      {
        path: 'events/:eventKey/photos',
        lazy: () => import('@/features/admin/photos/PhotosPage').then((m) => ({ Component: m.PhotosPage })),
      },
      { path: 'orders', lazy: () => import('@/features/admin/orders/OrdersPage').then((m) => ({ Component: m.OrdersPage })) },
      {
        path: 'settings',
        lazy: () => import('@/features/admin/settings/SettingsPage').then((m) => ({ Component: m.SettingsPage })),
      },
      {
        path: 'orders/:uuid',
        lazy: () => import('@/features/admin/orders/OrderDetailPage').then((m) => ({ Component: m.OrderDetailPage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const routes: RouteObject[] = [
  ...consoleRoutes,
  {
    element: <Layout />,
    children: [
      { index: true, lazy: () => import('@/features/home/HomePage').then((m) => ({ Component: m.HomePage })) },
      { path: 'cart', lazy: () => import('@/features/cart/CartPage').then((m) => ({ Component: m.CartPage })) },
      { path: 'cartopn', element: <Navigate to="/cart" replace /> },
      {
        path: 'cart-wholesale',
        lazy: () => import('@/features/cart/CartPage').then((m) => ({ Component: m.WholesaleCartPage })),
      },
      { path: 'download/:q', lazy: () => import('@/features/orders/OrderPage').then((m) => ({ Component: m.OrderPage })) },
      { path: 'd/:q', element: <Redirect to={(p) => `/download/${p.q ?? ''}`} /> },
      { path: 'dd/:q', element: <Redirect to={(p) => `/download/${p.q ?? ''}`} /> },
      { path: 'dp/:q', element: <Redirect to={(p) => `/download/${p.q ?? ''}`} /> },
      {
        path: 'find-order',
        lazy: () => import('@/features/orders/FindOrderPage').then((m) => ({ Component: m.FindOrderPage })),
      },
      { path: 'eventqr/:q', lazy: () => import('@/features/qr/QrPage').then((m) => ({ Component: m.QrPage })) },
      { path: 'eventqr', lazy: () => import('@/features/qr/QrPage').then((m) => ({ Component: m.QrPage })) },
      {
        path: 'how-to-order',
        lazy: () => import('@/features/content/HowToOrderPage').then((m) => ({ Component: m.HowToOrderPage })),
      },
      { path: 'about', lazy: () => import('@/features/content/AboutPage').then((m) => ({ Component: m.AboutPage })) },
      {
        path: 'terms-of-use',
        lazy: () => import('@/features/content/LegalPages').then((m) => ({ Component: m.TermsOfUsePage })),
      },
      {
        path: 'refund-policy',
        lazy: () => import('@/features/content/LegalPages').then((m) => ({ Component: m.RefundPolicyPage })),
      },
      {
        path: 'how-to-use',
        lazy: () => import('@/features/content/HowToUsePage').then((m) => ({ Component: m.HowToUsePage })),
      },
      { path: '404', element: <NotFoundPage /> },
      { path: 'event/:eventKey', element: <Redirect to={(p) => `/${p.eventKey ?? ''}`} /> },
      { path: ':eventKey', lazy: () => import('@/features/events/EventPage').then((m) => ({ Component: m.EventPage })) },
      {
        path: ':eventKey/wholesale',
        lazy: () => import('@/features/events/WholesalePage').then((m) => ({ Component: m.WholesalePage })),
      },
      // Stage events' manual search has no body in the spec: the event page's face search
      // serves it, with the stage instructions shown there.
      { path: ':eventKey/manual', element: <Redirect to={(p) => `/${p.eventKey ?? ''}`} /> },
      { path: ':q/qr', lazy: () => import('@/features/qr/QrPage').then((m) => ({ Component: m.QrPage })) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
