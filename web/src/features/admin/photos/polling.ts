//! Timings of the photos page (console-only, so they live here rather than in the shop's
//! constants).

/** How often ingestion counts are asked again while photos wait or are being processed. */
export const INGEST_POLL_MS = 2000;
/** Uploads finishing one after another refresh the counts at most this often. */
export const UPLOAD_REFRESH_MS = 1000;
