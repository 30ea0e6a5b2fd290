//! /404 and every unknown address: a text and a way back home.

import { Link } from 'react-router';
import { useT } from '@/i18n';

export function NotFoundPage() {
  const t = useT();
  return (
    <section className="page narrow center" data-testid="not-found">
      <h1>404</h1>
      <p className="lead">{t('notFound.title')}</p>
      <p className="muted">{t('notFound.text')}</p>
      <Link to="/" className="btn btn-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
