//! Small controls the console's header and sign-in page share: the language switch and the
//! dark-mode toggle.

import { useDictionary, useLanguage } from '@/i18n';
import { LANGUAGES } from '@/i18n/define';
import { shellMessages } from './messages';
import { useAdminTheme } from './theme';

export function LanguageSwitch() {
  const t = useDictionary(shellMessages);
  const [lang, setLang] = useLanguage();
  return (
    <div className="lang-switch admin-lang" role="group" aria-label={t('shell.language')}>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          className={l === lang ? 'active' : ''}
          aria-pressed={l === lang}
          data-testid={`admin-lang-${l}`}
          onClick={() => setLang(l)}
        >
          {l === 'th' ? 'TH' : 'EN'}
        </button>
      ))}
    </div>
  );
}

export function DarkModeToggle() {
  const t = useDictionary(shellMessages);
  const { dark, toggle } = useAdminTheme();
  const label = t(dark ? 'shell.lightMode' : 'shell.darkMode');
  return (
    <button
      type="button"
      className="admin-icon-button"
      aria-pressed={dark}
      aria-label={label}
      title={label}
      data-testid="dark-mode"
      onClick={toggle}
    >
      <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
    </button>
  );
}
