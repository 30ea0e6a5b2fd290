//! Small controls the console's header and sign-in page share: the language switch and the
//! dark-mode toggle.

import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { useDictionary } from '@/i18n';
import { shellMessages } from './messages';
import { useAdminTheme } from './theme';

/** The shared switch, with the console's test ids. */
export function LanguageSwitch() {
  return <LanguageSwitcher className="admin-lang" testIdPrefix="admin-lang" />;
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
