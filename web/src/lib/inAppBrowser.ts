//! In-app browsers (LINE, Facebook, Instagram, TikTok, Twitter, Android and iOS webviews)
//! cannot save zip files: they are detected by their user agent.

const IN_APP = [
  /\bLine\//i,
  /FBAN|FBAV|FB_IAB|FBIOS/i,
  /Instagram/i,
  /musical_ly|TikTok|BytedanceWebview|trill/i,
  /Twitter/i,
  /; wv\)/i, // Android WebView
];

export function isInAppBrowser(userAgent: string = navigator.userAgent): boolean {
  if (IN_APP.some((re) => re.test(userAgent))) return true;
  // iOS webviews lack "Safari" in their user agent, unlike Safari and Chrome on iOS.
  return /iPhone|iPad|iPod/i.test(userAgent) && !/Safari/i.test(userAgent);
}

export function isIos(userAgent: string = navigator.userAgent): boolean {
  return /iPhone|iPad|iPod/i.test(userAgent);
}

/** Copies text to the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
