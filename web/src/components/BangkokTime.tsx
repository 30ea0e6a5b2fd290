//! An instant from the server, shown in Bangkok time in the visitor's language.

import { useLanguage } from '@/i18n';
import { formatBangkokDateTime } from '@/lib/dates';

export function BangkokTime({ value }: { value: string }) {
  const [lang] = useLanguage();
  return <time dateTime={value}>{formatBangkokDateTime(value, lang)}</time>;
}
