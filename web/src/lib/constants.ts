//! The shop's business constants and UI timings, in one place.

export const HOME_PAGE_SIZE = 18;
export const PAGE_RANGE = 3;
export const MARGIN_PAGES = 4;
export const CAROUSEL_AUTOPLAY_MS = 3000;

export const TOAST_MS = 1000;
export const ERROR_TOAST_MS = 7000;
export const WARNING_MS = 5000;
export const COPY_TOAST_MS = 1000;
export const COPY_ERROR_TOAST_MS = 2000;

/** Face upload limit: 5 MB of 1e6 bytes. */
export const MAX_SELFIE_BYTES = 5 * 1_000_000;
export const SELFIE_TYPES = ['image/jpeg', 'image/png'] as const;

export const SALE_WARNING_DAYS = { from: 1, to: 10 } as const;
export const BACK_TO_TOP_AFTER_PX = 600;
export const NARROW_SCREEN_PX = 767;
export const CART_LIST_HEIGHT_PX = 500;
export const BULK_DOWNLOAD_PAUSE_MS = 200;
export const PAYMENT_FEE_PERCENT = 5;

/** Masonry columns by viewport width. */
export const MASONRY_COLUMNS = { default: 6, 1549: 5, 1023: 4, 767: 3, 479: 2 } as const;

export const MOBILE_LENGTH = { min: 5, max: 15 } as const;
/** Every form but the standard paid one takes exactly this many digits. */
export const EXACT_MOBILE_LENGTH = 10;
export const FIND_MOBILE_LENGTH = { min: 10, max: 15 } as const;
export const RECEIPT_LENGTH = 4;
/** The one-time code that opens a found order has this many digits. */
export const ACCESS_CODE_LENGTH = 6;

/** How often an order still changing on the server is asked again. */
export const ORDER_POLL_MS = 5000;
/** How long the "download started" note stays after a ZIP is handed to the browser. */
export const DOWNLOAD_NOTICE_MS = 5000;
/** How long a downloaded ZIP's object address is kept before its memory is freed. */
export const ZIP_URL_REVOKE_MS = 60_000;
/** The largest ZIP the order page receives itself (to show progress); a larger one is left
 * to the browser's own download, which writes to disk instead of memory. */
export const ZIP_IN_PAGE_MAX_BYTES = 300 * 1024 * 1024;
/** Received ZIP bytes are shown in megabytes of 1e6 bytes, as upload limits are. */
export const BYTES_PER_MB = 1_000_000;

export const ORDER_QR_PX = 250;
export const QR_PAGE_PX = 300;
export const QR_CANVAS_PX = 1000;

/** Where photographers sign up and upload (the menu's external Photographer link). */
export const PHOTOGRAPHER_SITE = 'https://photographer.raceshot.app';
/** The shop's contact channels. */
export const CONTACT = {
  line: '@raceshot',
  lineUrl: 'https://line.me/R/ti/p/@raceshot',
  facebook: 'https://www.facebook.com/raceshot.app',
  email: 'support@raceshot.app',
} as const;
