//! The frame of a content page: its title and lead paragraph, then the page's own parts.

import type { ReactNode } from 'react';
import type { ContentMessageKey } from './messages';
import { useT } from './messages';

export function ContentArticle({ title, intro, children }: { title: ContentMessageKey; intro: ContentMessageKey; children: ReactNode }) {
  const t = useT();
  return (
    <article className="page narrow content">
      <h1>{t(title)}</h1>
      <p className="lead">{t(intro)}</p>
      {children}
    </article>
  );
}
