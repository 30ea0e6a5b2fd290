//! Back from LINE (`/{event_key}?alert=linked|declined|failed`): how asking for an alert by
//! LINE went, shown at the top of the event page whether or not a search has run there.

import { useSearchParams } from 'react-router';
import { useT, type AlertMessageKey } from './messages';

const OUTCOMES = {
  linked: 'alert.outcome.linked',
  declined: 'alert.outcome.declined',
  failed: 'alert.outcome.failed',
} as const satisfies Record<string, AlertMessageKey>;

const isOutcome = (v: string | null): v is keyof typeof OUTCOMES => v !== null && Object.hasOwn(OUTCOMES, v);

export function AlertOutcome() {
  const t = useT();
  const [params] = useSearchParams();
  const outcome = params.get('alert');
  if (!isOutcome(outcome)) return null;
  return (
    <p
      className={`alert ${outcome === 'linked' ? 'alert-info' : 'alert-danger'}`}
      role="status"
      data-testid="alert-outcome"
      data-outcome={outcome}
    >
      {t(OUTCOMES[outcome])}
    </p>
  );
}
