//! The orders a lookup found: none, or a table of them (date, the way to open one with a
//! code sent to its own contact, event, status).

import type { FoundOrderRow } from '@/api/types';
import { BangkokTime } from '@/components/BangkokTime';
import { DataTable } from '@/components/DataTable';
import { OrderCodeAccess } from './OrderCodeAccess';
import { statusKey } from './orderData';
import { useT } from './messages';

export function FindResults({ rows }: { rows: FoundOrderRow[] }) {
  const t = useT();
  if (rows.length === 0) {
    return (
      <p className="card center" data-testid="find-not-found">
        {t('order.find.notFound')}
      </p>
    );
  }
  return (
    <div className="card stack">
      <p className="muted">{t('order.find.found', { count: rows.length })}</p>
      <p className="small" data-testid="find-code-why">
        {t('order.find.code.why')}
      </p>
      <DataTable
        className="find-results"
        testId="find-results"
        label={t('order.find.found', { count: rows.length })}
        columns={[t('order.find.col.date'), t('order.find.col.order'), t('order.find.col.event'), t('order.find.col.status')]}
      >
        {rows.map((row, i) => {
          const key = statusKey(row.status);
          return (
            // Rows carry no order id, only their lookup.
            <tr key={row.lookup || i} data-testid="find-row">
              <td className="find-date">
                <BangkokTime value={row.create_date} />
              </td>
              <td className="find-open find-open-code">
                <OrderCodeAccess row={row} />
              </td>
              <td className="find-title">{row.title}</td>
              <td data-status={row.status}>{key ? t(key) : row.status}</td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}
