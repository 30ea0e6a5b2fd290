//! Find-order page (/find-order): look orders up by mobile number or by the end of the
//! transfer slip; each found order opens with a one-time code sent to its own contact (a
//! mobile number or receipt alone opens nothing), or, when the shop cannot send one, the
//! page says how to get the link again. Below, the orders this device placed, each with its
//! link. `?mobile=…` prefills and searches at once.

import './orders.css';
import { Link } from 'react-router';
import { BangkokTime } from '@/components/BangkokTime';
import { ErrorAlert } from '@/components/ErrorAlert';
import { useMyOrders } from '@/lib/myOrders';
import { FindOrderForm } from './FindOrderForm';
import { FindResults } from './FindResults';
import { useFindOrders } from './useFindOrders';
import { useT } from './messages';

export function FindOrderPage() {
  const t = useT();
  const form = useFindOrders();
  const rows = form.find.data?.body;
  return (
    <section className="page narrow stack find-order-page">
      <h1>{t('order.find.title')}</h1>
      <p className="muted">{t('order.find.intro')}</p>
      <FindOrderForm form={form} />
      {form.find.isError && <ErrorAlert error={form.find.error} testId="find-api-error" />}
      {rows !== undefined && <FindResults rows={rows} />}
      <DeviceOrders />
    </section>
  );
}

/** The orders this device placed, newest first, each opening its page. */
function DeviceOrders() {
  const t = useT();
  const mine = useMyOrders();
  if (mine.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="device-orders-title" data-testid="device-orders">
      <h2 id="device-orders-title">{t('order.find.device.title')}</h2>
      <p className="small muted">{t('order.find.device.intro')}</p>
      <ul className="device-orders">
        {mine.map((o) => (
          <li key={o.uuid} data-testid="device-order">
            <BangkokTime value={o.created} /> · {o.title || o.event_key}{' '}
            <Link to={`/download/${o.uuid}`} data-testid="device-order-open">
              {t('order.find.open')}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
