//! How to use (/how-to-use): saving downloaded photos on iPhone/iPad, Android and a
//! computer, single photos and zip files.

import './content.css';
import { Link } from 'react-router';
import type { ContentMessageKey } from './messages';
import { CONTACT } from '@/lib/constants';
import { ContentArticle } from './ContentArticle';
import { useT } from './messages';

type Device = { id: string; title: ContentMessageKey; single?: ContentMessageKey[]; zip: ContentMessageKey[] };

const DEVICES: Device[] = [
  {
    id: 'ios',
    title: 'content.howToUse.ios.title',
    single: ['content.howToUse.ios.single1', 'content.howToUse.ios.single2'],
    zip: ['content.howToUse.ios.zip1', 'content.howToUse.ios.zip2', 'content.howToUse.ios.zip3'],
  },
  {
    id: 'android',
    title: 'content.howToUse.android.title',
    single: ['content.howToUse.android.single1', 'content.howToUse.android.single2'],
    zip: ['content.howToUse.android.zip1', 'content.howToUse.android.zip2', 'content.howToUse.android.zip3'],
  },
  {
    id: 'computer',
    title: 'content.howToUse.computer.title',
    zip: [
      'content.howToUse.computer.step1',
      'content.howToUse.computer.step2',
      'content.howToUse.computer.step3',
      'content.howToUse.computer.step4',
    ],
  },
];

function Steps({ keys }: { keys: ContentMessageKey[] }) {
  const t = useT();
  return (
    <ol className="content-steps">
      {keys.map((k) => (
        <li key={k}>{t(k)}</li>
      ))}
    </ol>
  );
}

export function HowToUsePage() {
  const t = useT();
  return (
    <ContentArticle title="content.howToUse.title" intro="content.howToUse.intro">

      {DEVICES.map((d) => (
        <section key={d.id} className="card" aria-labelledby={`how-to-use-${d.id}`}>
          <h2 id={`how-to-use-${d.id}`}>{t(d.title)}</h2>
          {d.single && (
            <>
              <h3>{t('content.howToUse.singleTitle')}</h3>
              <Steps keys={d.single} />
            </>
          )}
          <h3>{t('content.howToUse.zipTitle')}</h3>
          <Steps keys={d.zip} />
        </section>
      ))}

      <section className="card">
        <h2>{t('content.howToUse.tipsTitle')}</h2>
        <ul className="content-points">
          <li>{t('content.howToUse.tip1')}</li>
          <li>{t('content.howToUse.tip2')}</li>
          <li>{t('content.howToUse.tip3')}</li>
          <li>
            <Link to="/find-order">{t('content.howToUse.tip4')}</Link>
          </li>
        </ul>
        <p>
          <a href={CONTACT.lineUrl} target="_blank" rel="noopener noreferrer">
            {t('content.howToUse.help', { line: CONTACT.line })}
          </a>
        </p>
      </section>
    </ContentArticle>
  );
}
