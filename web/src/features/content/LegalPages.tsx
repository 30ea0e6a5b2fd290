//! Terms of use with privacy (/terms-of-use) and the refund policy (/refund-policy), each
//! written whole in Thai and in English and chosen by the visitor's language.

import './content.css';
import type { ReactNode } from 'react';
import { useLanguage } from '@/i18n';
import { RefundEn } from './legal/RefundEn';
import { RefundTh } from './legal/RefundTh';
import { TermsEn } from './legal/TermsEn';
import { TermsTh } from './legal/TermsTh';

/** A legal text in the visitor's language. */
function LegalArticle({ testId, th, en }: { testId: string; th: ReactNode; en: ReactNode }) {
  const [lang] = useLanguage();
  return (
    <article className="page narrow content legal" data-testid={testId}>
      {lang === 'en' ? en : th}
    </article>
  );
}

export function TermsOfUsePage() {
  return <LegalArticle testId="terms-of-use" th={<TermsTh />} en={<TermsEn />} />;
}

export function RefundPolicyPage() {
  return <LegalArticle testId="refund-policy" th={<RefundTh />} en={<RefundEn />} />;
}
