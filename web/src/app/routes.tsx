//! Every route of the shop and its console. Pages load on demand (one chunk per feature
//! page), so the first visit downloads only the shell and the page it opens. Legacy addresses lead to the
//! page that replaced them.
//!
//! The routes are declared as elements (`<Routes>`), not given to a data router: the app
//! uses no loaders or actions, and the data router's code is 15 KB (brotli) of the first
//! script a phone on a slow network waits for. Navigations run in a transition, so the old
//! page stays on screen while the next page's chunk loads, as it did with route `lazy`. The
//! first page's chunk is asked for as the app starts (`loadPage`, from main.tsx), not once
//! the first render has reached it. (Waiting for it before the first render, as the data
//! router did, was measured slower on a slow phone: the frame no longer paints early, and
//! the whole page then renders in one long task.)

import { createElement, isValidElement, use, type ComponentType, type ReactNode } from 'react';
import { createRoutesFromChildren, matchRoutes, Navigate, Route, Routes, useParams } from 'react-router';
import { Layout } from '@/components/layout/Layout';
import { NotFoundPage } from './NotFoundPage';

type PageComponent = ComponentType & { load: () => Promise<void> };

/** A page component from a chunk loaded when the route is first shown (or `load`ed): until
 * then it suspends; once loaded it renders at once. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): PageComponent {
  let Component: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const start = () =>
    (loading ??= load().then((m) => {
      Component = pick(m);
    }));
  function Page() {
    if (Component === undefined) use(start());
    return Component === undefined ? null : createElement(Component);
  }
  return Object.assign(Page, { load: start });
}

const LoginPage = page(() => import('@/features/admin/auth/LoginPage'), (m) => m.LoginPage);
const AdminLayout = page(() => import('@/features/admin/shell/AdminLayout'), (m) => m.AdminLayout);
const DashboardPage = page(() => import('@/features/admin/dashboard/DashboardPage'), (m) => m.DashboardPage);
const AuditPage = page(() => import('@/features/admin/audit/AuditPage'), (m) => m.AuditPage);
const EventsPage = page(() => import('@/features/admin/events/EventsPage'), (m) => m.EventsPage);
const EventFormPage = page(() => import('@/features/admin/events/EventFormPage'), (m) => m.EventFormPage);
const PhotosPage = page(() => import('@/features/admin/photos/PhotosPage'), (m) => m.PhotosPage);
const ResultsPage = page(() => import('@/features/admin/results/ResultsPage'), (m) => m.ResultsPage);
const PassesPage = page(() => import('@/features/admin/passes/PassesPage'), (m) => m.PassesPage);
const FramePage = page(() => import('@/features/admin/frames/FramePage'), (m) => m.FramePage);
const OrdersPage = page(() => import('@/features/admin/orders/OrdersPage'), (m) => m.OrdersPage);
const OrderDetailPage = page(() => import('@/features/admin/orders/OrderDetailPage'), (m) => m.OrderDetailPage);
const UploadTokensPage = page(() => import('@/features/admin/uploads/UploadTokensPage'), (m) => m.UploadTokensPage);
const SettingsPage = page(() => import('@/features/admin/settings/SettingsPage'), (m) => m.SettingsPage);
const PrivacyRequestsPage = page(
  () => import('@/features/admin/privacy/PrivacyRequestsPage'),
  (m) => m.PrivacyRequestsPage,
);

const HomePage = page(() => import('@/features/home/HomePage'), (m) => m.HomePage);
const CartPage = page(() => import('@/features/cart/CartPage'), (m) => m.CartPage);
const WholesaleCartPage = page(() => import('@/features/cart/CartPage'), (m) => m.WholesaleCartPage);
const OrderPage = page(() => import('@/features/orders/OrderPage'), (m) => m.OrderPage);
const FindOrderPage = page(() => import('@/features/orders/FindOrderPage'), (m) => m.FindOrderPage);
const QrPage = page(() => import('@/features/qr/QrPage'), (m) => m.QrPage);
const HowToOrderPage = page(() => import('@/features/content/HowToOrderPage'), (m) => m.HowToOrderPage);
const AboutPage = page(() => import('@/features/content/AboutPage'), (m) => m.AboutPage);
const TermsOfUsePage = page(() => import('@/features/content/LegalPages'), (m) => m.TermsOfUsePage);
const RefundPolicyPage = page(() => import('@/features/content/LegalPages'), (m) => m.RefundPolicyPage);
const HowToUsePage = page(() => import('@/features/content/HowToUsePage'), (m) => m.HowToUsePage);
const EventPage = page(() => import('@/features/events/EventPage'), (m) => m.EventPage);
const WholesalePage = page(() => import('@/features/events/WholesalePage'), (m) => m.WholesalePage);
const ManualPage = page(() => import('@/features/events/ManualPage'), (m) => m.ManualPage);
const HideMyPhotosPage = page(() => import('@/features/events/HideMyPhotosPage'), (m) => m.HideMyPhotosPage);
const HidePickEventPage = page(() => import('@/features/events/HideMyPhotosPage'), (m) => m.HidePickEventPage);
const AlertPage = page(() => import('@/features/alerts/AlertPage'), (m) => m.AlertPage);

/** Sends `/{prefix}/{param}` style legacy paths to their new address. */
function Redirect({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

const toOrder = (p: Record<string, string | undefined>) => `/download/${p.q ?? ''}`;
const toEvent = (p: Record<string, string | undefined>) => `/${p.eventKey ?? ''}`;

const routes: ReactNode = (
  <>
    {/* The operator console (`/admin`): its own frame, loaded only when opened. */}
    <Route path="admin/login" element={<LoginPage />} />
    <Route path="admin" element={<AdminLayout />}>
      <Route index element={<DashboardPage />} />
      <Route path="audit" element={<AuditPage />} />
      <Route path="events" element={<EventsPage />} />
      <Route path="events/new" element={<EventFormPage />} />
      <Route path="events/:eventKey/edit" element={<EventFormPage />} />
      <Route path="events/:eventKey/photos" element={<PhotosPage />} />
      <Route path="events/:eventKey/results" element={<ResultsPage />} />
      <Route path="events/:eventKey/passes" element={<PassesPage />} />
      <Route path="events/:eventKey/frame" element={<FramePage />} />
      <Route path="orders" element={<OrdersPage />} />
      <Route path="settings" element={<SettingsPage />} />
      <Route path="uploads" element={<UploadTokensPage />} />
      <Route path="privacy" element={<PrivacyRequestsPage />} />
      <Route path="orders/:uuid" element={<OrderDetailPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>

    <Route element={<Layout />}>
      <Route index element={<HomePage />} />
      <Route path="cart" element={<CartPage />} />
      <Route path="cartopn" element={<Navigate to="/cart" replace />} />
      <Route path="cart-wholesale" element={<WholesaleCartPage />} />
      <Route path="download/:q" element={<OrderPage />} />
      <Route path="d/:q" element={<Redirect to={toOrder} />} />
      <Route path="dd/:q" element={<Redirect to={toOrder} />} />
      <Route path="dp/:q" element={<Redirect to={toOrder} />} />
      <Route path="find-order" element={<FindOrderPage />} />
      <Route path="eventqr/:q" element={<QrPage />} />
      <Route path="eventqr" element={<QrPage />} />
      <Route path="how-to-order" element={<HowToOrderPage />} />
      <Route path="about" element={<AboutPage />} />
      <Route path="terms-of-use" element={<TermsOfUsePage />} />
      <Route path="refund-policy" element={<RefundPolicyPage />} />
      <Route path="how-to-use" element={<HowToUsePage />} />
      {/* Hiding one's photos (PDPA objection): the event chosen first, then its form. */}
      <Route path="hide-my-photos" element={<HidePickEventPage />} />
      {/* An alert of new photos, from its messages' links (`?t=`, and `&stop=1` to stop it). */}
      <Route path="alerts/:alertId" element={<AlertPage />} />
      <Route path="404" element={<NotFoundPage />} />
      <Route path="event/:eventKey" element={<Redirect to={toEvent} />} />
      <Route path=":eventKey" element={<EventPage />} />
      <Route path=":eventKey/wholesale" element={<WholesalePage />} />
      {/* The manual search (linked from stage events' pages): every photo of the event in
          the order taken, with filters and the bib search. */}
      <Route path=":eventKey/manual" element={<ManualPage />} />
      <Route path=":eventKey/hide-my-photos" element={<HideMyPhotosPage />} />
      <Route path=":q/qr" element={<QrPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </>
);

export function AppRoutes() {
  return <Routes>{routes}</Routes>;
}

const isPage = (type: unknown): type is PageComponent => typeof type === 'function' && 'load' in type;

/** Starts loading the chunks of the page at `pathname` (and of its frame). */
export function loadPage(pathname: string): Promise<unknown> {
  const matches = matchRoutes(createRoutesFromChildren(routes), pathname) ?? [];
  return Promise.all(
    matches.flatMap(({ route }) =>
      isValidElement(route.element) && isPage(route.element.type) ? [route.element.type.load()] : [],
    ),
  );
}
