//! How far a paid (or free) order's delivery has come: paid (or created), originals ready,
//! logo copies ready (paid orders only), completed; the first step not done is the current one.

import { isYes, type InquiryResponse } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { isFreeOrder } from './orderData';
import { useT, type OrderMessageKey } from './messages';

type Step = { key: OrderMessageKey; done: boolean };

function steps(order: InquiryResponse): Step[] {
  const original = isYes(order.is_original_image_created);
  if (isFreeOrder(order)) {
    return [
      { key: 'order.step.created', done: true },
      { key: 'order.step.original', done: original },
      { key: 'order.step.freeCompleted', done: original },
    ];
  }
  const logo = isYes(order.is_logo_image_created);
  return [
    { key: 'order.step.paid', done: true },
    { key: 'order.step.original', done: original },
    { key: 'order.step.logo', done: logo },
    { key: 'order.step.completed', done: original && logo },
  ];
}

export function Stepper({ order }: { order: InquiryResponse }) {
  const t = useT();
  const list = steps(order);
  const current = list.findIndex((s) => !s.done);
  return (
    <ol className="order-stepper" aria-label={t('order.steps.label')} data-testid="order-stepper">
      {list.map((s, i) => (
        <li
          key={s.key}
          className={s.done ? 'done' : i === current ? 'current' : undefined}
          aria-current={i === current ? 'step' : undefined}
          data-done={s.done ? 'Y' : 'N'}
        >
          <span className="step-mark" aria-hidden="true">
            {s.done ? '✓' : i + 1}
          </span>
          <span className="step-label">
            {t(s.key)}
            {i === current && <Spinner inline label={t('order.step.inProgress')} />}
          </span>
        </li>
      ))}
    </ol>
  );
}
