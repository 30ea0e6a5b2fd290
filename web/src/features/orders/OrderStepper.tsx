//! How far a paid (or free) order's delivery has come: paid (or created), originals ready
//! (for a free download of an event with a sponsor frame: its framed photos), logo copies
//! ready (paid orders only), framed copies ready (paid orders that carry the frame),
//! completed; the first step not done is the current one.

import { isYes, type InquiryResponse } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { isFreeOrder, shownVariants, variantReady } from './orderData';
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
  const copies = shownVariants(order)
    .filter((v) => v !== 'original')
    .map((v): Step => ({ key: v === 'logo' ? 'order.step.logo' : 'order.step.frame', done: variantReady(order, v) }));
  return [
    { key: 'order.step.paid', done: true },
    { key: 'order.step.original', done: original },
    ...copies,
    { key: 'order.step.completed', done: original && copies.every((s) => s.done) },
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
