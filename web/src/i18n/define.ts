//! How a feature declares its texts: Thai first (the default language), and an English
//! dictionary the compiler holds to exactly the same keys.

export type Language = 'th' | 'en';
export const LANGUAGES: readonly Language[] = ['th', 'en'];

export function defineMessages<const T extends Record<string, string>>(
  th: T,
  en: { [K in keyof T]: string },
): { th: T; en: { [K in keyof T]: string } } {
  return { th, en };
}
