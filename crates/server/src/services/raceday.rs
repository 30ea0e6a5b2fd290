//! Race day: what the console's dashboard charts while photos stream in — per event, the
//! photos received (in all, and per photographer), those that became searchable and the
//! face searches, in equal buckets over the last hours; the photos received in the last
//! minutes and those still waiting; and the ingestion queue with its expected wait. And
//! for the event page, how many photos became searchable since a runner searched.
//!
//! The expected wait is the queue's depth over the pace of the last
//! [`PACE_WINDOW_MINUTES`] (photos that became searchable, all events): jobs are taken
//! oldest first whatever their event, so a photo sent now waits for the whole queue. With
//! a queue and no pace yet (the workers just started, or none run), the wait is unknown.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use raceshot_store::activity::SEARCH_BUCKET_MS;
use raceshot_store::{Store, StoreError};

/// The longest window the view charts, in hours.
pub const MAX_HOURS: u32 = 12;
/// "Received in the last minutes" counts this many minutes.
pub const RECENT_MINUTES: i64 = 10;
/// The pace behind the expected wait is measured over this many minutes.
pub const PACE_WINDOW_MINUTES: i64 = 10;
/// The most bars of a chart, whatever its window.
const BUCKETS: i64 = 36;
/// A runner hears of at most this many new photos: the count stops there, and so does
/// the work of counting.
pub const ARRIVALS_CAP: i64 = 1000;
/// "New photos since you searched" looks back no further than this.
pub const ARRIVALS_LOOKBACK_HOURS: i64 = 24;

/// The buckets a window of `hours` is charted in: their size and the first one's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The first bucket's start.
    pub since: DateTime<Utc>,
    /// Milliseconds per bucket: a multiple of five minutes (searches are counted per five).
    pub bucket_ms: i64,
    pub buckets: usize,
}

impl Window {
    /// The window of the last `hours` (1 to [`MAX_HOURS`]) up to `now`, its last bucket
    /// the one `now` is in.
    pub fn last_hours(hours: u32, now: DateTime<Utc>) -> Self {
        let hours = i64::from(hours.clamp(1, MAX_HOURS));
        // The shortest whole five minutes that fit the window in BUCKETS bars.
        let fit = (hours * 60 + BUCKETS - 1) / BUCKETS;
        let minutes = ((fit + 4) / 5 * 5).max(5);
        let bucket_ms = minutes * 60_000;
        debug_assert_eq!(bucket_ms % SEARCH_BUCKET_MS, 0);
        let buckets = hours * 60 / minutes;
        let current = now.timestamp_millis() / bucket_ms * bucket_ms;
        let since = current - (buckets - 1) * bucket_ms;
        Self {
            since: DateTime::from_timestamp_millis(since).unwrap_or(now),
            bucket_ms,
            buckets: buckets as usize,
        }
    }

    /// The bucket an instant (Unix milliseconds, at a bucket's start) falls in, if any.
    fn index(&self, bucket_start: i64) -> Option<usize> {
        let offset = bucket_start - self.since.timestamp_millis();
        (offset >= 0)
            .then(|| (offset / self.bucket_ms) as usize)
            .filter(|&i| i < self.buckets)
    }
}

/// One photographer's photos received at an event, per bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotographerActivity {
    /// The operator who uploaded them (0: `raceshot ingest` or another way).
    pub photographer_id: i64,
    pub received: Vec<i64>,
}

/// One event's race day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventActivity {
    pub event_id: i64,
    /// Photos received per bucket.
    pub received: Vec<i64>,
    /// Photos that became searchable per bucket.
    pub searchable: Vec<i64>,
    /// Face searches per bucket.
    pub searches: Vec<i64>,
    /// The photographers who sent photos in the window, the busiest first.
    pub photographers: Vec<PhotographerActivity>,
    /// Photos received in the last [`RECENT_MINUTES`].
    pub received_recent: i64,
    /// Photos queued or in processing.
    pub waiting: i64,
}

impl EventActivity {
    fn new(event_id: i64, buckets: usize) -> Self {
        Self {
            event_id,
            received: vec![0; buckets],
            searchable: vec![0; buckets],
            searches: vec![0; buckets],
            photographers: Vec::new(),
            received_recent: 0,
            waiting: 0,
        }
    }

    fn is_quiet(&self) -> bool {
        self.waiting == 0
            && [&self.received, &self.searchable, &self.searches]
                .iter()
                .all(|series| series.iter().all(|&n| n == 0))
    }
}

/// The ingestion queue, across events.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Queue {
    /// Processing jobs waiting or running.
    pub depth: i64,
    /// Photos that became searchable per minute, over the last [`PACE_WINDOW_MINUTES`].
    pub per_minute: f64,
    /// How long a photo sent now waits to be searchable; `None` when a queue has no pace.
    pub expected_wait_secs: Option<i64>,
}

impl Queue {
    pub fn new(depth: i64, searchable_in_pace_window: i64) -> Self {
        let per_minute = searchable_in_pace_window as f64 / PACE_WINDOW_MINUTES as f64;
        let expected_wait_secs = if depth == 0 {
            Some(0)
        } else if per_minute > 0.0 {
            Some((depth as f64 / per_minute * 60.0).ceil() as i64)
        } else {
            None
        };
        Self {
            depth,
            per_minute,
            expected_wait_secs,
        }
    }
}

/// The race day of the events `event_ids` over `window`: the events with anything in the
/// window or waiting, the most received first.
pub async fn activity(
    store: &Store,
    event_ids: &[i64],
    window: Window,
    now: DateTime<Utc>,
) -> Result<Vec<EventActivity>, StoreError> {
    let mut events: Vec<EventActivity> = event_ids
        .iter()
        .map(|&id| EventActivity::new(id, window.buckets))
        .collect();
    let at: HashMap<i64, usize> = event_ids
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i))
        .collect();
    // The event and bucket a row counts in; none for rows outside the window.
    let slot = |event_id: i64, bucket: i64| Some((*at.get(&event_id)?, window.index(bucket)?));

    let received = store
        .received_per_bucket(event_ids, window.since, window.bucket_ms)
        .await?;
    for row in received {
        let Some((e, b)) = slot(row.event_id, row.bucket) else {
            continue;
        };
        let event = &mut events[e];
        event.received[b] += row.photos;
        let who = match event
            .photographers
            .iter()
            .position(|p| p.photographer_id == row.photographer_id)
        {
            Some(i) => i,
            None => {
                event.photographers.push(PhotographerActivity {
                    photographer_id: row.photographer_id,
                    received: vec![0; window.buckets],
                });
                event.photographers.len() - 1
            }
        };
        event.photographers[who].received[b] += row.photos;
    }
    let searchable = store
        .searchable_per_bucket(event_ids, window.since, window.bucket_ms)
        .await?;
    for row in searchable {
        if let Some((e, b)) = slot(row.event_id, row.bucket) {
            events[e].searchable[b] += row.count;
        }
    }
    let searches = store
        .searches_per_bucket(event_ids, window.since, window.bucket_ms)
        .await?;
    for row in searches {
        if let Some((e, b)) = slot(row.event_id, row.bucket) {
            events[e].searches[b] += row.count;
        }
    }
    let recent = now - Duration::minutes(RECENT_MINUTES);
    for (id, n) in store.received_since(event_ids, recent).await? {
        if let Some(&e) = at.get(&id) {
            events[e].received_recent = n;
        }
    }
    for (id, n) in store.waiting_photos(event_ids).await? {
        if let Some(&e) = at.get(&id) {
            events[e].waiting = n;
        }
    }

    events.retain(|e| !e.is_quiet());
    for e in &mut events {
        e.photographers.sort_by_key(|p| {
            (
                std::cmp::Reverse(p.received.iter().sum::<i64>()),
                p.photographer_id,
            )
        });
    }
    events.sort_by_key(|e| {
        (
            std::cmp::Reverse(e.received.iter().sum::<i64>()),
            e.event_id,
        )
    });
    Ok(events)
}

/// The ingestion queue now.
pub async fn queue(store: &Store, now: DateTime<Utc>) -> Result<Queue, StoreError> {
    let depth = store.pending_jobs(crate::jobs::kinds::HEAVY).await?;
    let pace = store
        .searchable_since(now - Duration::minutes(PACE_WINDOW_MINUTES))
        .await?;
    Ok(Queue::new(depth, pace))
}

/// How many of an event's shown photos became searchable after `since` (at most
/// [`ARRIVALS_CAP`]); a moment older than [`ARRIVALS_LOOKBACK_HOURS`], or in the future,
/// is read as that bound.
pub async fn arrivals_since(
    store: &Store,
    event_id: i64,
    since: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<i64, StoreError> {
    let since = since.clamp(now - Duration::hours(ARRIVALS_LOOKBACK_HOURS), now);
    store.arrivals_since(event_id, since, ARRIVALS_CAP).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(ms).unwrap()
    }

    #[test]
    fn windows_have_whole_five_minute_buckets_ending_now() {
        let now = at(1_800_000_000_123);
        for hours in [0, 1, 3, 6, 12, 99] {
            let w = Window::last_hours(hours, now);
            assert_eq!(w.bucket_ms % SEARCH_BUCKET_MS, 0, "{hours} h");
            let end = w.since.timestamp_millis() + w.buckets as i64 * w.bucket_ms;
            assert!(
                w.since < now && at(end) > now,
                "{hours} h: the last bucket holds now"
            );
        }
        assert_eq!(Window::last_hours(3, now).bucket_ms, 5 * 60_000);
        assert_eq!(Window::last_hours(3, now).buckets, 36);
        assert_eq!(Window::last_hours(12, now).bucket_ms, 20 * 60_000);
        assert_eq!(Window::last_hours(1, now).buckets, 12);
        for hours in 1..=MAX_HOURS {
            let w = Window::last_hours(hours, now);
            assert!(w.buckets <= 36, "{hours} h: {} buckets", w.buckets);
            assert_eq!(
                w.buckets as i64 * w.bucket_ms,
                i64::from(hours) * 3_600_000,
                "{hours} h"
            );
        }
    }

    #[test]
    fn buckets_outside_the_window_are_none() {
        let w = Window::last_hours(1, at(1_800_000_000_000));
        let start = w.since.timestamp_millis();
        assert_eq!(w.index(start), Some(0));
        assert_eq!(w.index(start - w.bucket_ms), None);
        assert_eq!(w.index(start + 11 * w.bucket_ms), Some(11));
        assert_eq!(w.index(start + 12 * w.bucket_ms), None);
    }

    #[test]
    fn the_wait_is_the_queue_over_the_pace() {
        assert_eq!(Queue::new(0, 0).expected_wait_secs, Some(0));
        assert_eq!(Queue::new(30, 0).expected_wait_secs, None);
        // 60 photos in 10 minutes: 6 a minute, 30 waiting is five minutes.
        let q = Queue::new(30, 60);
        assert_eq!(q.per_minute, 6.0);
        assert_eq!(q.expected_wait_secs, Some(300));
    }
}
