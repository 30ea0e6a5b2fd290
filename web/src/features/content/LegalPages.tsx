//! Terms of use with privacy (/terms-of-use) and the refund policy (/refund-policy), each
//! written whole in Thai and in English and chosen by the visitor's language (spec §2, §9).

import './content.css';
import { useLanguage } from '@/i18n';
import { RefundEn } from './legal/RefundEn';
import { RefundTh } from './legal/RefundTh';
import { TermsEn } from './legal/TermsEn';
import { TermsTh } from './legal/TermsTh';

export function TermsOfUsePage() {
  const [lang] = useLanguage();
  return (
    <article className="page narrow content legal" data-testid="terms-of-use">
      {lang === 'en' ? <TermsEn /> : <TermsTh />}
    </article>
  );
}

export function RefundPolicyPage() {
  const [lang] = useLanguage();
  return (
    <article className="page narrow content legal" data-testid="refund-policy">
      {lang === 'en' ? <RefundEn /> : <RefundTh />}
    </article>
  );
}
