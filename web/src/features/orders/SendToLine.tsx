//! "Send to my LINE" on the order page: where the shop has LINE set up, a link that goes
//! through LINE Login (a plain navigation, which LINE's own in-app browser follows too)
//! and links the order to the runner's LINE account: the order's link comes at once, its
//! photos when they are ready. Back from LINE, `?line=` says how it went.

import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { lineLoginQuery } from './api';
import { useT, type OrderMessageKey } from './messages';

const OUTCOMES = {
  linked: 'order.line.linked',
  declined: 'order.line.declined',
  failed: 'order.line.failed',
} as const satisfies Record<string, OrderMessageKey>;

const isOutcome = (v: string | null): v is keyof typeof OUTCOMES => v !== null && v in OUTCOMES;

export function SendToLine({ uuid }: { uuid: string }) {
  const t = useT();
  const [params] = useSearchParams();
  const on = useQuery(lineLoginQuery).data?.body.value === 'on';
  const outcome = params.get('line');
  if (!on) return null;
  return (
    <section className="card stack send-to-line" data-testid="send-to-line">
      {isOutcome(outcome) && (
        <p
          className={`alert ${outcome === 'linked' ? 'alert-success' : 'alert-danger'}`}
          role="status"
          data-testid="line-outcome"
          data-outcome={outcome}
        >
          {t(OUTCOMES[outcome])}
        </p>
      )}
      <p>{t('order.line.text')}</p>
      <p>
        <a className="btn btn-line" href={`/api/line/link/order/${encodeURIComponent(uuid)}`} data-testid="send-to-line-link">
          {outcome === 'linked' ? t('order.line.again') : t('order.line.send')}
        </a>
      </p>
    </section>
  );
}
