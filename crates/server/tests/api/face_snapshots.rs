//! Face index snapshots (`services::search::snapshot`): written once faces arrive, read by
//! a process's first search instead of every row, checked against the rows, and deleted
//! when a face they hold is deleted, on both backends and on S3.

use std::time::{Duration, SystemTime};

use raceshot_server::services::search::index::FaceIndexes;
use raceshot_server::services::search::snapshot;
use raceshot_store::Backend;
use raceshot_store::face_snapshots::FaceSnapshot;
use raceshot_store::objects::{ObjectKey, StoredName};
use raceshot_store::photos::NewFace;
use raceshot_vision::{Embedding, ModelPair};

use crate::both_backends;
use crate::helpers::{TestApp, event};

both_backends!(a_snapshot_serves_the_first_search_until_a_face_it_holds_is_deleted);

fn embedding(seed: u64, dim: usize) -> Embedding {
    raceshot_vision::testing::stranger(seed, dim).unwrap()
}

fn face(e: &Embedding) -> NewFace {
    NewFace {
        embedding: e.to_bytes(),
        bbox: [10.0, 10.0, 60.0, 60.0],
        landmarks: vec![0; 40],
        score: 0.9,
    }
}

async fn photo_with(app: &TestApp, name: &str, faces: &[Embedding]) -> i64 {
    let image = raceshot_vision::RgbImage::filled(64, 48, [90, 120, 200]);
    let jpeg = raceshot_server::infra::imaging::encode_jpeg(&image, 90).unwrap();
    let faces = faces.iter().map(face).collect();
    app.ready_photo("race", name, jpeg, (6000, 4000), faces)
        .await
}

fn key(s: &FaceSnapshot) -> ObjectKey {
    ObjectKey::shared("face-index", &s.name)
}

/// The event's snapshot once it holds `faces` faces (written in the background; up to
/// 20 s, for a machine busy with other tests).
async fn snapshot_of(app: &TestApp, event_id: i64, pair: ModelPair, faces: i64) -> FaceSnapshot {
    for _ in 0..800 {
        if let Some(s) = app
            .store
            .face_snapshot(event_id, pair.name())
            .await
            .unwrap()
            && s.faces == faces
        {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("no snapshot of {faces} faces was written");
}

/// A new process's indexes (nothing loaded), which never write snapshots themselves.
fn restarted(app: &TestApp) -> FaceIndexes {
    FaceIndexes::new(app.store.clone(), app.state.objects.clone(), 1 << 30, 0)
}

async fn snapshot_life(app: &TestApp, local_root: Option<std::path::PathBuf>) {
    let pair = app.state.faces.configured();
    let dim = pair.embedding_dim();
    let (_, stored) = app.stored_event("race").await;
    let event_id = stored.id;
    let people: Vec<Embedding> = (0..14).map(|i| embedding(1000 + i, dim)).collect();
    let mut photos = Vec::new();
    for p in 0..3 {
        photos.push(photo_with(app, &format!("IMG_{p}.jpg"), &people[4 * p..4 * p + 4]).await);
    }
    let objects = &app.state.objects;
    assert!(
        snapshot::load(&app.store, objects, event_id, pair)
            .await
            .unwrap()
            .is_none()
    );

    // The first search loads the rows and, a face having arrived (every = 1), writes the
    // snapshot of all 12.
    let query = people[5].clone();
    let found = (app.state.indexes)
        .search(event_id, pair, query.clone(), 0.35, 10)
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].photo_id, photos[1]);
    let first = snapshot_of(app, event_id, pair, 12).await;
    assert!(objects.exists(&key(&first)).await.unwrap());

    // A process starting now reads it, checked, and answers as the rows do.
    let (index, up_to) = snapshot::load(&app.store, objects, event_id, pair)
        .await
        .unwrap()
        .expect("the snapshot matches the rows");
    assert_eq!((index.len(), up_to), (12, first.up_to));
    assert_eq!(
        restarted(app)
            .search(event_id, pair, query.clone(), 0.35, 10)
            .await
            .unwrap(),
        found
    );

    // Faces stored after it are read from the rows on top of it.
    let late = photo_with(app, "IMG_late.jpg", &[people[12].clone(), query.clone()]).await;
    let again = restarted(app)
        .search(event_id, pair, query.clone(), 0.35, 10)
        .await
        .unwrap();
    let mut photos_found: Vec<i64> = again.iter().map(|h| h.photo_id).collect();
    photos_found.sort_unstable();
    assert_eq!(photos_found, vec![photos[1], late]);

    // A damaged object is not used: deleted with its row, and the rows answer.
    let mut bytes = objects.get(&key(&first)).await.unwrap().to_vec();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    objects.put(&key(&first), bytes.into()).await.unwrap();
    assert!(
        snapshot::load(&app.store, objects, event_id, pair)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        app.store
            .face_snapshot(event_id, pair.name())
            .await
            .unwrap()
            .is_none()
    );
    assert!(!objects.exists(&key(&first)).await.unwrap());
    assert_eq!(
        restarted(app)
            .search(event_id, pair, query.clone(), 0.35, 10)
            .await
            .unwrap()
            .len(),
        2
    );

    // The process holding the grown index writes the next one at its next search.
    (app.state.indexes)
        .search(event_id, pair, query.clone(), 0.35, 10)
        .await
        .unwrap();
    let second = snapshot_of(app, event_id, pair, 14).await;
    assert_ne!(second.name, first.name);

    // A face it holds deleted (its photo deleted): the rows count fewer faces, so a
    // process starting now does not use it, and deletes it.
    app.store.delete_photo(photos[0]).await.unwrap();
    let counted = app.store.faces_up_to(event_id, pair.name(), second.up_to);
    assert_eq!(counted.await.unwrap(), 10);
    let gone = snapshot::load(&app.store, objects, event_id, pair)
        .await
        .unwrap();
    assert!(gone.is_none());
    assert!(!objects.exists(&key(&second)).await.unwrap());

    // The process that held the index meanwhile still holds the deleted faces in memory
    // (results drop deleted photos), so its next snapshot holds them too: the next
    // retention run deletes it, whether or not a process ever loads it.
    photo_with(app, "IMG_later.jpg", &[people[13].clone()]).await;
    (app.state.indexes)
        .search(event_id, pair, query.clone(), 0.35, 10)
        .await
        .unwrap();
    let third = snapshot_of(app, event_id, pair, 15).await;
    app.run_retention().await.unwrap();
    let row = app
        .store
        .face_snapshot(event_id, pair.name())
        .await
        .unwrap();
    assert!(row.is_none());
    assert!(!objects.exists(&key(&third)).await.unwrap());

    // An object no row names (a write cut short, an event deleted) goes once an hour old.
    if let Some(root) = local_root {
        let orphan = StoredName::parse("999-insightface-7.faces").unwrap();
        let orphan_key = ObjectKey::shared("face-index", &orphan);
        objects
            .put(&orphan_key, vec![1, 2, 3].into())
            .await
            .unwrap();
        app.run_retention().await.unwrap();
        assert!(
            objects.exists(&orphan_key).await.unwrap(),
            "too young to go"
        );
        let file = std::fs::File::options()
            .write(true)
            .open(root.join(orphan_key.as_str()))
            .unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(2 * 3600))
            .unwrap();
        app.run_retention().await.unwrap();
        assert!(!objects.exists(&orphan_key).await.unwrap());
    }
}

async fn a_snapshot_serves_the_first_search_until_a_face_it_holds_is_deleted(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_env("RACESHOT__SEARCH__INDEX_SNAPSHOT_FACES", "1")
        .spawn()
        .await;
    let root = app.data_dir.join("objects");
    snapshot_life(&app, Some(root)).await;
}

#[tokio::test]
async fn a_snapshot_is_written_and_read_on_s3() {
    let s3 = raceshot_store::testing::S3TestServer::start().await;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__SEARCH__INDEX_SNAPSHOT_FACES", "1")
        .with_s3(&s3)
        .spawn()
        .await;
    snapshot_life(&app, None).await;
}
