//! The TH/EN switch of the shop's header and the console's.

import { useLanguage, useT } from '@/i18n';
import { LANGUAGES } from '@/i18n/define';

type Props = {
  /** Extra class for where it sits. */
  className?: string;
  /** Each button gets `data-testid="{testIdPrefix}-{language}"` when given. */
  testIdPrefix?: string;
};

export function LanguageSwitcher({ className, testIdPrefix }: Props) {
  const [lang, setLang] = useLanguage();
  const t = useT();
  return (
    <div className={className ? `lang-switch ${className}` : 'lang-switch'} role="group" aria-label={t('header.language')}>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          className={l === lang ? 'active' : ''}
          aria-pressed={l === lang}
          data-testid={testIdPrefix ? `${testIdPrefix}-${l}` : undefined}
          onClick={() => setLang(l)}
        >
          {l === 'th' ? 'TH' : 'EN'}
        </button>
      ))}
    </div>
  );
}
