//! Find-order page (/find-order): look orders up by mobile number or by the end of the
//! transfer slip; each found order opens with a one-time code sent to its own contact (a
//! mobile number or receipt alone opens nothing), or, when the shop cannot send one, the
//! page says how to get the link again. Below, the orders this device placed, each with its
//! link. `?mobile=…` prefills and searches at once.

import './orders.css';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { DataTable } from '@/components/DataTable';
import { ErrorAlert } from '@/components/ErrorAlert';
import { findOrders } from './api';
import { checkFind, type FindCheck, type FindFilter, type FindRequest } from './findOrder';
import { OrderCodeAccess } from './OrderCodeAccess';
import { statusKey } from './orderData';
import { BangkokTime } from '@/components/BangkokTime';
import { InputField } from '@/components/InputField';
import { useMyOrders } from '@/lib/myOrders';
import { useT } from './messages';

/** The ways to look orders up, each with its label. */
const FILTERS = [
  ['mobile', 'order.find.byMobile'],
  ['receipt', 'order.find.byReceipt'],
] as const satisfies readonly (readonly [FindFilter, string])[];

export function FindOrderPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const initialMobile = params.get('mobile') ?? '';
  const [filter, setFilter] = useState<FindFilter>('mobile');
  const [text, setText] = useState(initialMobile);
  const [invalid, setInvalid] = useState<Extract<FindCheck, { ok: false }>['error'] | null>(null);
  const inputId = useId();
  const errorId = useId();

  const find = useMutation({
    mutationFn: (request: FindRequest) => findOrders(request),
  });
  const { mutate } = find;

  // Searches once for a number given in the address (a second effect run in development
  // must not search twice).
  const searched = useRef(false);
  useEffect(() => {
    if (searched.current || initialMobile === '') return;
    searched.current = true;
    const check = checkFind('mobile', initialMobile);
    if (check.ok) mutate(check.request);
    else setInvalid(check.error);
  }, [initialMobile, mutate]);

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const check = checkFind(filter, text);
    if (!check.ok) {
      setInvalid(check.error);
      return;
    }
    setInvalid(null);
    mutate(check.request);
  };

  const reset = () => {
    setFilter('mobile');
    setText('');
    setInvalid(null);
    find.reset();
    if (params.has('mobile')) setParams({}, { replace: true });
  };

  const chooseFilter = (next: FindFilter) => {
    setFilter(next);
    setInvalid(null);
  };

  const rows = find.data?.body;

  return (
    <section className="page narrow stack find-order-page">
      <h1>{t('order.find.title')}</h1>
      <p className="muted">{t('order.find.intro')}</p>
      <form className="card" onSubmit={submit} noValidate>
        <fieldset className="field find-filter">
          <legend>{t('order.find.filter')}</legend>
          <div className="radio-row">
            {FILTERS.map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name="filter"
                  value={value}
                  checked={filter === value}
                  onChange={() => chooseFilter(value)}
                  data-testid={`filter-${value}`}
                />{' '}
                {t(label)}
              </label>
            ))}
          </div>
        </fieldset>
        <InputField
          id={inputId}
          label={t(filter === 'mobile' ? 'order.find.inputMobile' : 'order.find.inputReceipt')}
          type={filter === 'mobile' ? 'tel' : 'text'}
          inputMode={filter === 'mobile' ? 'numeric' : 'text'}
          autoComplete={filter === 'mobile' ? 'tel' : 'off'}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={invalid !== null}
          aria-describedby={invalid ? errorId : undefined}
          data-testid="find-input"
        >
          {invalid && (
            <p id={errorId} className="field-error" role="alert" data-testid="find-error">
              {t(invalid.key, invalid.vars)}
            </p>
          )}
        </InputField>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={find.isPending} data-testid="find-submit">
            {find.isPending && <Spinner inline label={t('order.find.searching')} />}
            {t('order.find.search')}
          </button>
          <button type="button" className="btn btn-secondary" onClick={reset} data-testid="find-reset">
            {t('order.find.reset')}
          </button>
        </div>
      </form>

      {find.isError && <ErrorAlert error={find.error} testId="find-api-error" />}

      {rows !== undefined &&
        (rows.length === 0 ? (
          <p className="card center" data-testid="find-not-found">
            {t('order.find.notFound')}
          </p>
        ) : (
          <div className="card stack">
            <p className="muted">{t('order.find.found', { count: rows.length })}</p>
            <p className="small" data-testid="find-code-why">
              {t('order.find.code.why')}
            </p>
            <DataTable
              className="find-results"
              testId="find-results"
              columns={[
                t('order.find.col.date'),
                t('order.find.col.order'),
                t('order.find.col.event'),
                t('order.find.col.status'),
              ]}
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
        ))}

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
