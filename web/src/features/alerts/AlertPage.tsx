//! An alert's page (/alerts/{alert_id}?t=TOKEN, the link in its messages; `&stop=1` from
//! their "stop" link): the event, the new photos of the runner found since the alert was
//! turned on, each addable to the cart as on the event page, a link to the event page, the
//! day the alert ends at the latest, and "stop these alerts", which deletes the alert and its
//! face template at once. Opened to stop, the page shows the stop button first, still waiting
//! for a tap: link previewers open links too, so nothing is stopped on load. An alert
//! stopped, ended, or a link that does not fit reads as "ended".

import './alerts.css';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { failureCode } from '@/api/client';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useLanguage } from '@/i18n';
import { useCart } from '@/lib/cart';
import { formatBangkokDayOf } from '@/lib/dates';
import { AlertPhotoGrid } from './AlertPhotoGrid';
import { stopAlert, useAlertPhotos, type AlertPhotos } from './api';
import { useT } from './messages';

export function AlertPage() {
  const t = useT();
  const { alertId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const stopFirst = params.get('stop') === '1';
  const alert = useAlertPhotos(alertId, token);
  const stop = useMutation({ mutationFn: () => stopAlert(alertId, token) });
  const ended = [alert.error, stop.error].some((e) => e !== null && failureCode(e) === 'alert_not_found');

  let body;
  if (stop.isSuccess) body = <Stopped />;
  else if (ended) body = <Ended />;
  else if (alert.isPending) body = <Spinner label={t('loading')} />;
  else if (alert.isError) body = <ErrorAlert error={alert.error} testId="alert-load-error" />;
  else {
    const stopBlock = (
      <StopAlert prominent={stopFirst} busy={stop.isPending} error={stop.error} onStop={() => stop.mutate()} />
    );
    body = (
      <>
        {stopFirst && stopBlock}
        <Found answer={alert.data} />
        {!stopFirst && stopBlock}
      </>
    );
  }

  return (
    <section className="page alert-page stack" data-testid="alert-page">
      <title>{`${t('alert.page.title')} | Raceshot`}</title>
      <h1>{t('alert.page.title')}</h1>
      {body}
    </section>
  );
}

/** The event, the photos found, where to go next, and when the alert ends. */
function Found({ answer }: { answer: AlertPhotos }) {
  const t = useT();
  const [lang] = useLanguage();
  const cart = useCart('standard');
  const { alert, images } = answer;
  return (
    <>
      <p className="alert-page-event" data-testid="alert-event">
        <strong>{alert.event_title}</strong>
      </p>
      <p data-testid="alert-count">
        {images.length > 0 ? <strong>{t('alert.page.count', { count: images.length })}</strong> : t('alert.page.none')}
      </p>
      {images.length > 0 && <AlertPhotoGrid eventKey={alert.event_key} photos={images} />}
      <div className="row">
        <Link to={`/${encodeURIComponent(alert.event_key)}`} className="btn btn-secondary" data-testid="alert-event-link">
          {t('alert.page.event')}
        </Link>
        {cart.length > 0 && (
          <Link to="/cart" className="btn btn-primary" data-testid="cart-link">
            {t('alert.cart.link', { count: cart.length })}
          </Link>
        )}
      </div>
      <p className="muted" data-testid="alert-until">
        {t('alert.page.until', { date: formatBangkokDayOf(alert.expires_at, lang) })}
      </p>
    </>
  );
}

type StopProps = { prominent: boolean; busy: boolean; error: unknown; onStop: () => void };

/** "Stop these alerts": one tap, never on its own. First and in red when the page was
 * opened to stop. */
function StopAlert({ prominent, busy, error, onStop }: StopProps) {
  const t = useT();
  return (
    <div className={prominent ? 'card stack alert-stop-first' : 'stack'}>
      {prominent && <p>{t('alert.page.stopFirst')}</p>}
      {error !== null && <ErrorAlert error={error} testId="alert-stop-error" />}
      <button
        type="button"
        className={`btn ${prominent ? 'btn-danger btn-block' : 'btn-secondary'}`}
        data-testid="alert-stop"
        disabled={busy}
        onClick={onStop}
      >
        {busy && <Spinner inline label={t('alert.page.stopping')} />}
        {t('alert.page.stop')}
      </button>
    </div>
  );
}

function Stopped() {
  const t = useT();
  return (
    <div className="stack">
      <p className="alert alert-info" role="status" data-testid="alert-stopped">
        {t('alert.page.stopped')}
      </p>
      <p>
        <Link to="/">{t('alert.page.home')}</Link>
      </p>
    </div>
  );
}

function Ended() {
  const t = useT();
  return (
    <div className="stack" data-testid="alert-ended">
      <p className="alert alert-info" role="status">
        {t('alert.page.ended')}
      </p>
      <p>
        <Link to="/" className="btn btn-secondary">
          {t('alert.page.home')}
        </Link>
      </p>
    </div>
  );
}
