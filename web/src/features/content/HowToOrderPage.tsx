//! How to order (/how-to-order): the five-step timeline from choosing an event to
//! downloading the originals.

import './content.css';
import { Link } from 'react-router';
import type { ContentMessageKey } from './messages';
import { ContentArticle } from './ContentArticle';
import { useT } from './messages';

const STEPS = [
  { title: 'content.howToOrder.step1.title', text: 'content.howToOrder.step1.text' },
  { title: 'content.howToOrder.step2.title', text: 'content.howToOrder.step2.text' },
  { title: 'content.howToOrder.step3.title', text: 'content.howToOrder.step3.text' },
  { title: 'content.howToOrder.step4.title', text: 'content.howToOrder.step4.text' },
  { title: 'content.howToOrder.step5.title', text: 'content.howToOrder.step5.text' },
] as const satisfies readonly { title: ContentMessageKey; text: ContentMessageKey }[];

export function HowToOrderPage() {
  const t = useT();
  return (
    <ContentArticle title="content.howToOrder.title" intro="content.howToOrder.intro">
      <ol className="timeline" data-testid="how-to-order-steps">
        {STEPS.map((s, i) => (
          <li key={s.title} className="timeline-step">
            <span className="timeline-dot" aria-hidden="true">
              {i + 1}
            </span>
            <div className="card timeline-card">
              <p className="timeline-label muted">{t('content.howToOrder.step', { n: i + 1 })}</p>
              <h2>{t(s.title)}</h2>
              <p>{t(s.text)}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className="alert alert-info">{t('content.howToOrder.retention')}</p>
      <div className="row content-actions">
        <Link to="/" className="btn btn-primary">
          {t('content.howToOrder.goEvents')}
        </Link>
        <Link to="/how-to-use" className="btn btn-secondary">
          {t('content.howToOrder.goHowToUse')}
        </Link>
        <Link to="/find-order" className="btn btn-secondary">
          {t('content.howToOrder.goFindOrder')}
        </Link>
      </div>
    </ContentArticle>
  );
}
