//! The find-order form: look orders up by mobile number or by the end of the transfer slip,
//! the text's problem beside it, and a reset.

import { useId } from 'react';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import type { FindFilter } from './findOrder';
import type { FindOrders } from './useFindOrders';
import { useT } from './messages';

/** The ways to look orders up, each with its label. */
const FILTERS = [
  ['mobile', 'order.find.byMobile'],
  ['receipt', 'order.find.byReceipt'],
] as const satisfies readonly (readonly [FindFilter, string])[];

export function FindOrderForm({ form }: { form: FindOrders }) {
  const t = useT();
  const { filter, text, invalid, find } = form;
  const inputId = useId();
  const errorId = useId();
  const mobile = filter === 'mobile';
  return (
    <form className="card" onSubmit={form.submit} noValidate>
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
                onChange={() => form.chooseFilter(value)}
                data-testid={`filter-${value}`}
              />{' '}
              {t(label)}
            </label>
          ))}
        </div>
      </fieldset>
      <InputField
        id={inputId}
        label={t(mobile ? 'order.find.inputMobile' : 'order.find.inputReceipt')}
        type={mobile ? 'tel' : 'text'}
        inputMode={mobile ? 'numeric' : 'text'}
        autoComplete={mobile ? 'tel' : 'off'}
        value={text}
        onChange={(e) => form.setText(e.target.value)}
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
        <button type="button" className="btn btn-secondary" onClick={form.reset} data-testid="find-reset">
          {t('order.find.reset')}
        </button>
      </div>
    </form>
  );
}
