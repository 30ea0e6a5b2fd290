//! Face index snapshots: an event's index of one pair's faces written out as one object
//! (`_shop/face-index/{event}-{pair}-{last face id}.faces`, about 800 bytes a face; the
//! format is `raceshot_vision::index::snapshot`), so that the first search after a start
//! reads one object instead of decoding and quantising every face row (11 s at 1,000,000
//! faces).
//!
//! **Checked against the rows.** A snapshot is used only when the rows still count as many
//! faces of the event and pair up to its last id as it holds (ids are never reused, so a
//! face deleted since changes the count), when it reads back whole (length, checksum) and
//! when sampled faces of it are exactly what their rows quantise to. Otherwise it is
//! deleted and the index is built from the rows. Faces stored after it are read from the
//! rows as before.
//!
//! **Written by the process that holds the index**, in the background, once
//! `search.index_snapshot_faces` faces have arrived since the last one; it is made part by
//! part under the index's read lock (a part at a time), so searches go on meanwhile.
//!
//! **Lifetime.** A snapshot holds face templates, so it lives no longer than the rows it
//! was made from: a face deleted (its photo deleted, its event moved to another pair)
//! makes the snapshot stale, and the next load or the hourly retention run
//! ([`sweep`]) deletes it; an object no row names (an event deleted, a write cut short)
//! is deleted by the retention run once an hour old.

use std::sync::RwLock;
use std::time::Duration;

use anyhow::Context as _;
use futures::TryStreamExt;
use raceshot_store::Store;
use raceshot_store::face_snapshots::FaceSnapshot;
use raceshot_store::objects::{ObjectKey, Objects, StoredName};
use raceshot_vision::index::{SnapshotReader, SnapshotWriter};
use raceshot_vision::{Embedding, FaceIndex, ModelPair};

/// The folder under `_shop/`.
const FOLDER: &str = "face-index";
/// Bytes read or written at a time.
const PART: usize = 8 * 1024 * 1024;
/// Faces of a snapshot compared with their rows when it is loaded.
const SAMPLES: usize = 16;
/// An object no row names is deleted once this old (a write in flight is younger).
const ORPHAN_AGE: Duration = Duration::from_secs(3600);

fn key(name: &StoredName) -> ObjectKey {
    ObjectKey::shared(FOLDER, name)
}

/// The event's snapshot of `pair` and the highest face id it holds, when there is one
/// that matches the rows; a stale or damaged one is deleted (and `None` answered).
pub async fn load(
    store: &Store,
    objects: &Objects,
    event_id: i64,
    pair: ModelPair,
) -> anyhow::Result<Option<(FaceIndex, i64)>> {
    let Some(snapshot) = store.face_snapshot(event_id, pair.name()).await? else {
        return Ok(None);
    };
    // The count and the object's reading overlap: each is a good part of the time.
    let (counted, read) = tokio::join!(
        store.faces_up_to(event_id, pair.name(), snapshot.up_to),
        read(store, objects, &snapshot, pair)
    );
    let counted = counted?;
    if counted != snapshot.faces {
        tracing::info!(
            event = event_id,
            snapshot = snapshot.faces,
            rows = counted,
            "face index snapshot is stale: building from the rows"
        );
        discard(store, objects, &snapshot).await?;
        return Ok(None);
    }
    match read {
        Ok(index) => Ok(Some((index, snapshot.up_to))),
        Err(e) => {
            tracing::warn!(
                event = event_id,
                error = format!("{e:#}"),
                "face index snapshot not used: building from the rows"
            );
            discard(store, objects, &snapshot).await?;
            Ok(None)
        }
    }
}

/// Reads a snapshot and checks it against what its row says and against sampled rows.
async fn read(
    store: &Store,
    objects: &Objects,
    snapshot: &FaceSnapshot,
    pair: ModelPair,
) -> anyhow::Result<FaceIndex> {
    let (size, _, mut parts) = objects.get_parts(&key(&snapshot.name), PART).await?;
    anyhow::ensure!(
        i64::try_from(size).ok() == Some(snapshot.bytes),
        "{size} bytes where {} were written",
        snapshot.bytes
    );
    // Filling the arrays is CPU work (a million faces: about 250 ms): off the runtime.
    let mut reader = SnapshotReader::new(size);
    while let Some(part) = parts.try_next().await? {
        reader = tokio::task::spawn_blocking(move || reader.push(&part).map(|()| reader)).await??;
    }
    let index = tokio::task::spawn_blocking(move || reader.finish()).await??;
    anyhow::ensure!(
        index.dim() == pair.embedding_dim(),
        "{} dimensions, {} has {}",
        index.dim(),
        pair.name(),
        pair.embedding_dim()
    );
    let ids = index.face_ids();
    anyhow::ensure!(
        i64::try_from(ids.len()).ok() == Some(snapshot.faces)
            && ids.iter().max().copied().unwrap_or(0) == snapshot.up_to,
        "{} faces up to {:?} where the row says {} up to {}",
        ids.len(),
        ids.iter().max(),
        snapshot.faces,
        snapshot.up_to
    );
    for row in (0..SAMPLES)
        .map(|i| i * ids.len() / SAMPLES)
        .chain([ids.len().saturating_sub(1)])
    {
        let Some(&face) = ids.get(row) else { break };
        let stored = store
            .faces_after(snapshot.event_id, pair.name(), face - 1, 1)
            .await?;
        let matches = stored.first().filter(|f| f.id == face).is_some_and(|f| {
            Embedding::from_bytes(&f.embedding, pair.embedding_dim())
                .is_ok_and(|e| index.holds(face, f.photo_id, &e, f.width()))
        });
        anyhow::ensure!(matches, "face {face} differs from its row");
    }
    Ok(index)
}

/// Writes the snapshot of the index's faces as they are now and makes it the event's
/// current one (unless another process wrote a newer one meanwhile); answers how many
/// faces it holds.
pub async fn write(
    store: &Store,
    objects: &Objects,
    event_id: i64,
    pair: ModelPair,
    index: &RwLock<FaceIndex>,
) -> anyhow::Result<usize> {
    let (rows, up_to) = {
        let index = index.read().unwrap_or_else(|p| p.into_inner());
        let ids = index.face_ids();
        (ids.len(), ids.iter().max().copied().unwrap_or(0))
    };
    if rows == 0 {
        return Ok(0);
    }
    let name = StoredName::parse(&format!("{event_id}-{}-{up_to}.faces", pair.name()))
        .context("snapshot name")?;
    let mut object = objects.writer(&key(&name)).await?;
    let mut writer = SnapshotWriter::new(rows);
    let mut bytes = 0u64;
    loop {
        let part = {
            let index = index.read().unwrap_or_else(|p| p.into_inner());
            writer.next_part(&index, PART)
        };
        let part = match part {
            Ok(Some(part)) => part,
            Ok(None) => break,
            Err(e) => {
                object.abort().await?;
                return Err(e.into());
            }
        };
        bytes += part.len() as u64;
        if let Err(e) = object.write(&part).await {
            let _ = object.abort().await;
            return Err(e.into());
        }
    }
    object.finish().await?;
    let snapshot = FaceSnapshot {
        event_id,
        pair: pair.name().to_owned(),
        up_to,
        faces: rows as i64,
        name,
        bytes: bytes as i64,
        created_at: chrono::Utc::now(),
    };
    if let Some(unused) = store.record_face_snapshot(&snapshot).await? {
        objects.delete(&key(&unused)).await?;
    }
    tracing::info!(
        event = event_id,
        faces = rows,
        bytes,
        "face index snapshot written"
    );
    Ok(rows)
}

/// Forgets a snapshot and deletes its object.
async fn discard(store: &Store, objects: &Objects, snapshot: &FaceSnapshot) -> anyhow::Result<()> {
    store
        .forget_face_snapshot(snapshot.event_id, &snapshot.pair, &snapshot.name)
        .await?;
    objects.delete(&key(&snapshot.name)).await?;
    Ok(())
}

/// The retention run's part: deletes every snapshot that no longer matches its rows and
/// every object an hour old that no row names; answers how many objects went.
pub async fn sweep(store: &Store, objects: &Objects) -> anyhow::Result<usize> {
    let mut deleted = 0;
    for snapshot in store.face_snapshots().await? {
        let counted =
            (store.faces_up_to(snapshot.event_id, &snapshot.pair, snapshot.up_to)).await?;
        if counted != snapshot.faces {
            discard(store, objects, &snapshot).await?;
            deleted += 1;
        }
    }
    let folder = format!("_shop/{FOLDER}/");
    let listed = objects.list_with_times(&folder).await?;
    // Read after listing: an object written meanwhile is either named here or too young.
    let named: std::collections::HashSet<String> = (store.face_snapshots().await?)
        .into_iter()
        .map(|s| s.name.as_str().to_owned())
        .collect();
    let now = chrono::Utc::now();
    for (path, modified) in listed {
        let Some(name) = path.strip_prefix(&folder).and_then(StoredName::parse) else {
            continue;
        };
        let old = (now - modified).to_std().is_ok_and(|age| age >= ORPHAN_AGE);
        if old && !named.contains(name.as_str()) {
            objects.delete(&key(&name)).await?;
            deleted += 1;
        }
    }
    Ok(deleted)
}
