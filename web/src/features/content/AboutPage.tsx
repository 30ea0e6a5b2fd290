//! About (/about): what the shop is, its mission, and how to reach it.

import './content.css';
import { CONTACT, PHOTOGRAPHER_SITE } from '@/lib/constants';
import { ContentArticle } from './ContentArticle';
import { useT } from './messages';

export function AboutPage() {
  const t = useT();
  return (
    <ContentArticle title="content.about.title" intro="content.about.intro">
      <ul className="content-points">
        <li>{t('content.about.point1')}</li>
        <li>{t('content.about.point2')}</li>
        <li>{t('content.about.point3')}</li>
        <li>{t('content.about.point4')}</li>
      </ul>

      <section className="card">
        <h2>{t('content.about.missionTitle')}</h2>
        <p>{t('content.about.mission')}</p>
      </section>

      <section className="card" aria-labelledby="about-contact" data-testid="about-contact">
        <h2 id="about-contact">{t('content.about.contactTitle')}</h2>
        <p>{t('content.about.contactText')}</p>
        <dl className="contact-list">
          <div>
            <dt>{t('content.about.line')}</dt>
            <dd>
              <a href={CONTACT.lineUrl} target="_blank" rel="noopener noreferrer">
                {CONTACT.line}
              </a>
            </dd>
          </div>
          <div>
            <dt>{t('content.about.facebook')}</dt>
            <dd>
              <a href={CONTACT.facebook} target="_blank" rel="noopener noreferrer">
                {CONTACT.facebook.replace(/^https?:\/\/(www\.)?/, '')}
              </a>
            </dd>
          </div>
          <div>
            <dt>{t('content.about.email')}</dt>
            <dd>
              <a href={`mailto:${CONTACT.email}`}>{CONTACT.email}</a>
            </dd>
          </div>
        </dl>
      </section>

      <section className="card">
        <h2>{t('content.about.photographerTitle')}</h2>
        <p>{t('content.about.photographerText')}</p>
        <a className="btn btn-secondary" href={PHOTOGRAPHER_SITE} target="_blank" rel="noopener noreferrer">
          {t('content.about.photographerLink')}
        </a>
      </section>
    </ContentArticle>
  );
}
