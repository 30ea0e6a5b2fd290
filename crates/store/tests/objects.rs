//! Object storage behaves the same in a local directory and on an S3-compatible server.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use bytes::Bytes;
use raceshot_domain::EventKey;
use raceshot_store::testing::S3TestServer;
use raceshot_store::{ObjectKey, ObjectKind, Objects, StorageSettings, StoredName};

async fn round_trip(objects: &Objects) {
    let event = EventKey::parse("bkk").unwrap();
    let key = ObjectKey::new(
        &event,
        ObjectKind::Preview,
        &StoredName::parse("a1.jpg").unwrap(),
    );
    objects.ping().await.unwrap();
    assert!(!objects.exists(&key).await.unwrap());
    objects
        .put(&key, Bytes::from_static(b"preview bytes"))
        .await
        .unwrap();
    assert!(objects.exists(&key).await.unwrap());
    assert_eq!(
        objects.get(&key).await.unwrap(),
        Bytes::from_static(b"preview bytes")
    );
    assert_eq!(
        objects.list("bkk/preview").await.unwrap(),
        vec!["bkk/preview/a1.jpg".to_owned()]
    );
    objects.delete(&key).await.unwrap();
    objects.delete(&key).await.unwrap(); // twice is fine
    assert!(objects.get(&key).await.is_err_and(|e| e.is_not_found()));
    assert!(objects.list("bkk").await.unwrap().is_empty());

    // A folder emptied by the names' start, or whole; another kind's files stay.
    let file = |kind, name: &str| ObjectKey::new(&event, kind, &StoredName::parse(name).unwrap());
    for (kind, name) in [
        (ObjectKind::Certificate, "13-a.jpg"),
        (ObjectKind::Certificate, "13-b.pdf"),
        (ObjectKind::Certificate, "130-a.jpg"),
        (ObjectKind::Framed, "p1-f1.jpg"),
    ] {
        objects
            .put(&file(kind, name), Bytes::from_static(b"x"))
            .await
            .unwrap();
    }
    let gone = objects
        .delete_all(&event, ObjectKind::Certificate, "13-")
        .await
        .unwrap();
    assert_eq!(gone, 2);
    assert_eq!(
        objects.list("bkk/certificate").await.unwrap(),
        vec!["bkk/certificate/130-a.jpg".to_owned()]
    );
    assert_eq!(
        objects
            .delete_all(&event, ObjectKind::Certificate, "")
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        objects.list("bkk").await.unwrap(),
        vec!["bkk/framed/p1-f1.jpg".to_owned()]
    );
    objects
        .delete(&file(ObjectKind::Framed, "p1-f1.jpg"))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_local_directory() {
    let dir = tempfile::tempdir().unwrap();
    let objects = Objects::open(&StorageSettings::Local {
        root: dir.path().to_owned(),
    })
    .unwrap();
    round_trip(&objects).await;
    // No presigned addresses: uploads go through the server.
    let key = ObjectKey::shared("selfies", &StoredName::parse("x").unwrap());
    assert_eq!(
        objects
            .presign_put(&key, Duration::from_secs(60))
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn an_s3_server_with_presigned_uploads() {
    let s3 = S3TestServer::start().await;
    let objects = Objects::open(&s3.settings()).unwrap();
    round_trip(&objects).await;

    let key = ObjectKey::shared("selfies", &StoredName::parse("abc123").unwrap());
    let url = objects
        .presign_put(&key, Duration::from_secs(60))
        .await
        .unwrap()
        .unwrap();
    assert!(url.contains("X-Amz-Signature="), "{url}");
    let resp = reqwest::Client::new()
        .put(&url)
        .body("selfie bytes")
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    assert_eq!(
        objects.get(&key).await.unwrap(),
        Bytes::from_static(b"selfie bytes")
    );
}
