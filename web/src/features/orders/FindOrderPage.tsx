//! Find-order page (/find-order): look orders up by mobile number or by the end of the
//! transfer slip, and open each one's gallery: by its link, or, when the server requires it
//! (`code_required` Y), with a one-time code sent to the order's contact. `?mobile=…`
//! prefills and searches at once.

import './orders.css';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isYes } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { DataTable } from '@/components/DataTable';
import { ErrorAlert } from '@/components/ErrorAlert';
import { findOrders } from './api';
import { checkFind, type FindCheck, type FindFilter, type FindRequest } from './findOrder';
import { OrderCodeAccess } from './OrderCodeAccess';
import { statusKey } from './orderData';
import { BangkokTime } from '@/components/BangkokTime';
import { InputField } from '@/components/InputField';
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

  const submit = (e: FormEvent) => {
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
  const codeRequired = isYes(find.data?.code_required);

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
            {codeRequired && (
              <p className="small" data-testid="find-code-why">
                {t('order.find.code.why')}
              </p>
            )}
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
                  // Rows that need a code carry no order id, only their lookup.
                  <tr key={row.order_id || row.lookup || i} data-testid="find-row">
                    <td className="find-date">
                      <BangkokTime value={row.create_date} />
                    </td>
                    <td className={codeRequired ? 'find-open find-open-code' : 'find-open'}>
                      {codeRequired ? (
                        <OrderCodeAccess row={row} />
                      ) : (
                        <Link to={`/download/${row.order_id}`} data-testid="find-open">
                          {t('order.find.open')}
                        </Link>
                      )}
                    </td>
                    <td className="find-title">{row.title}</td>
                    <td data-status={row.status}>{key ? t(key) : row.status}</td>
                  </tr>
                );
              })}
            </DataTable>
          </div>
        ))}
    </section>
  );
}
