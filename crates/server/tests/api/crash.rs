//! Crash safety with real processes (`scripts/scale-out.sh`) ended by `kill -9`: the worker
//! in the middle of a 200-photo ingest, a replica in the middle of checkouts and of payment
//! messages, and in the middle of an upload. After a restart every photo is processed
//! exactly once (its faces stored once), no confirmed order is lost, a paid order is marked
//! paid once, and a half-sent photo leaves neither a row nor an object behind.

use std::collections::HashMap;

use raceshot_domain::PaymentStatus;
use raceshot_store::orders::OrderFilter;
use serde_json::{Value, json};

use crate::helpers::sign_in_at;
use crate::helpers::{TOKEN, get_text, oid, photo};
use crate::scale::{ScaleOut, counts, shop, upload, variant, wait_until};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_ingest_leaves_every_photo_processed_exactly_once() {
    let (db, store, event_id) = shop("crash-ingest").await;
    // A short lease, so that the dead worker's job is taken up again soon.
    let scale = ScaleOut::start(&db, &[("RACESHOT__JOBS__LEASE_SECS", "3")]);
    let a = scale.url("a");
    let client = reqwest::Client::new();
    let cookie = sign_in_at(&client, &a, "ops@example.com").await;
    let gdp = photo("gdp.jpg");
    for n in 0..200 {
        upload(
            &client,
            &a,
            &cookie,
            "crash-ingest",
            &format!("IMG_{n:04}.jpg"),
            variant(&gdp, n),
        )
        .await;
    }

    wait_until("a first part of the batch processed", &scale, async || {
        counts(&client, &a, &cookie, "crash-ingest").await["ready"]
            .as_i64()
            .unwrap_or(0)
            >= 15
    })
    .await;
    scale.kill9("worker");
    let at_kill = counts(&client, &a, &cookie, "crash-ingest").await;
    assert!(
        at_kill["ready"].as_i64().unwrap() < 200,
        "the worker died mid-batch: {at_kill}"
    );
    scale.restart("worker");
    wait_until(
        "the whole batch processed after the restart",
        &scale,
        async || counts(&client, &a, &cookie, "crash-ingest").await["ready"] == 200,
    )
    .await;
    let done = counts(&client, &a, &cookie, "crash-ingest").await;
    assert_eq!(
        done,
        json!({"queued": 0, "processing": 0, "ready": 200, "failed": 0})
    );

    // Exactly once: each photo's faces are stored once, as many as it says it has.
    let (photos, total) = store.list_photos(event_id, None, 0, 1000).await.unwrap();
    assert_eq!(total, 200);
    let mut stored: HashMap<i64, i64> = HashMap::new();
    for face in store
        .faces_after(event_id, "insightface", 0, 100_000)
        .await
        .unwrap()
    {
        *stored.entry(face.photo_id).or_default() += 1;
    }
    for p in &photos {
        assert!(p.face_count > 0, "{p:?}");
        assert_eq!(
            stored.get(&p.id).copied().unwrap_or(0),
            p.face_count,
            "faces of {}",
            p.original_file_name
        );
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_killed_mid_checkout_and_mid_payment_loses_no_order_and_pays_each_once() {
    let (db, store, _) = shop("crash-shop").await;
    let scale = ScaleOut::start(
        &db,
        &[("RACESHOT__ORDERS__CREATE_PER_CLIENT_PER_MINUTE", "10000")],
    );
    let (a, b) = (scale.url("a"), scale.url("b"));
    let client = reqwest::Client::new();
    let cookie = sign_in_at(&client, &a, "ops@example.com").await;
    let gdp = photo("gdp.jpg");
    for n in 0..3 {
        upload(
            &client,
            &a,
            &cookie,
            "crash-shop",
            &format!("IMG_{n}.jpg"),
            variant(&gdp, n),
        )
        .await;
    }
    wait_until("the photos processed", &scale, async || {
        counts(&client, &a, &cookie, "crash-shop").await["ready"] == 3
    })
    .await;
    for base in [&a, &b] {
        wait_until("the event in a replica's catalogue", &scale, async || {
            let url = format!("{base}/v1/events/crash-shop");
            client
                .get(url)
                .bearer_auth(TOKEN)
                .send()
                .await
                .is_ok_and(|r| r.status() == 200)
        })
        .await;
    }
    let highlight: Value = client
        .post(format!("{b}/v1/facesearch/highlight"))
        .bearer_auth(TOKEN)
        .json(&json!({"event_key": "crash-shop"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = highlight["body"][0]["id"].as_i64().unwrap();
    let quote: Value = client
        .post(format!("{b}/api/cart/quote"))
        .bearer_auth(TOKEN)
        .json(&json!({"event_key": "crash-shop", "image_ids": [id], "is_mhao": "N"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let order = |n: usize| {
        json!({"mobile": format!("08{n:08}"), "event_key": "crash-shop", "amount": quote["amount"],
            "paid_amount": quote["paid_amount"], "imageList": [{"id": id}], "image_length": 1, "is_mhao": "N",
            "payment_gateway": "SANDBOX", "payment_channel": "PP"})
    };

    let stored_with = |status: Option<PaymentStatus>| {
        let store = store.clone();
        async move {
            let filter = OrderFilter {
                status,
                ..OrderFilter::default()
            };
            store
                .list_orders(&filter, 0, 1)
                .await
                .map(|(_, n)| n)
                .unwrap_or(0)
        }
    };

    // Checkouts in flight when replica A dies.
    const CHECKOUTS: usize = 200;
    let mut inflight = Vec::new();
    for n in 0..CHECKOUTS {
        let (client, body, url) = (client.clone(), order(n), format!("{a}/v1/order/create"));
        inflight.push(tokio::spawn(async move {
            let resp = client
                .post(url)
                .bearer_auth(TOKEN)
                .json(&body)
                .send()
                .await
                .ok()?;
            let created: Value = resp.json().await.ok()?;
            created["uuid"].as_str().map(str::to_owned)
        }));
    }
    wait_until("the first orders written", &scale, async || {
        stored_with(None).await >= 10
    })
    .await;
    scale.kill9("replica-a");
    let mut confirmed = Vec::new();
    for task in inflight {
        if let Some(uuid) = task.await.unwrap() {
            confirmed.push(uuid);
        }
    }
    assert!(
        confirmed.len() < CHECKOUTS,
        "the crash cut some checkouts off"
    );
    scale.restart("replica-a");
    scale.wait_ready("a").await;

    // Every order a buyer was told about exists, whole; so does any the crash cut off after
    // it was written.
    let (stored, total) = store
        .list_orders(&Default::default(), 0, 1000)
        .await
        .unwrap();
    assert!(
        total as usize >= confirmed.len(),
        "{total} stored, {} confirmed",
        confirmed.len()
    );
    let inquiry = async |uuid: &str| -> Value {
        client
            .post(format!("{b}/v3/order/inquiry"))
            .bearer_auth(TOKEN)
            .json(&json!({"order_uuid": uuid}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    };
    for uuid in &confirmed {
        assert!(
            stored.iter().any(|o| o.uuid.to_string() == *uuid),
            "order {uuid} lost"
        );
    }
    for o in &stored {
        let answer = inquiry(&o.uuid.to_string()).await;
        assert_eq!(answer["payment_status"], "INITIAL", "{answer}");
        assert_eq!(answer["image_length"], 1, "{answer}");
    }

    // Payments in flight when replica A dies again; the gateway then repeats every message.
    let uuids: Vec<String> = stored.iter().map(|o| o.uuid.to_string()).collect();
    let pay = {
        let client = client.clone();
        move |base: String, uuid: String| {
            let client = client.clone();
            tokio::spawn(async move {
                let _ = client
                    .post(format!("{base}/api/sandbox/orders/{uuid}/pay"))
                    .json(&json!({"result": "paid"}))
                    .send()
                    .await;
            })
        }
    };
    // Paced as a gateway sends them, so that the crash falls among them.
    let sender = {
        let (uuids, a, pay) = (uuids.clone(), a.clone(), pay.clone());
        tokio::spawn(async move {
            let mut sent = Vec::new();
            for uuid in uuids {
                sent.push(pay(a.clone(), uuid));
                tokio::time::sleep(std::time::Duration::from_millis(30)).await;
            }
            for p in sent {
                p.await.unwrap();
            }
        })
    };
    wait_until("the first payments recorded", &scale, async || {
        stored_with(Some(PaymentStatus::Paid)).await >= 1
    })
    .await;
    scale.kill9("replica-a");
    sender.await.unwrap();
    assert!(
        stored_with(Some(PaymentStatus::Paid)).await < uuids.len() as i64,
        "the crash cut some payments off"
    );
    scale.restart("replica-a");
    for uuid in &uuids {
        pay(b.clone(), uuid.clone()).await.unwrap();
        pay(b.clone(), uuid.clone()).await.unwrap();
    }
    for uuid in &uuids {
        let answer = inquiry(uuid).await;
        assert_eq!(answer["payment_status"], "PAID", "{answer}");
        let order = store.order_by_uuid(oid(uuid)).await.unwrap().unwrap();
        let paid_messages = store
            .payment_trail(order.id)
            .await
            .unwrap()
            .into_iter()
            .filter(|t| t.kind == "sandbox:paid")
            .count();
        assert_eq!(paid_messages, 1, "order {uuid} marked paid once");
    }
    store.close().await;
}

/// The keys in the S3 server's bucket.
async fn stored_objects(client: &reqwest::Client, s3: &str) -> usize {
    let listing = get_text(client, format!("{s3}/photos?list-type=2&max-keys=1000")).await;
    listing.matches("<Key>").count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_killed_mid_upload_leaves_no_half_written_photo() {
    use tokio::io::AsyncWriteExt;

    let (db, store, event_id) = shop("crash-upload").await;
    let scale = ScaleOut::start(&db, &[]);
    let a = scale.url("a");
    let s3 = std::fs::read_to_string(scale.dir().join("s3.url"))
        .unwrap()
        .trim()
        .to_owned();
    let client = reqwest::Client::new();
    let cookie = sign_in_at(&client, &a, "ops@example.com").await;
    upload(
        &client,
        &a,
        &cookie,
        "crash-upload",
        "IMG_0001.jpg",
        variant(&photo("gdp.jpg"), 1),
    )
    .await;
    wait_until("the first photo processed", &scale, async || {
        counts(&client, &a, &cookie, "crash-upload").await["ready"] == 1
    })
    .await;
    let before = stored_objects(&client, &s3).await;
    assert!(before >= 3, "original, preview and thumbnail: {before}");

    // Half of a photo's bytes arrive; then the replica dies.
    let bytes = variant(&photo("players.jpg"), 2);
    let addr = a.trim_start_matches("http://").to_owned();
    let mut conn = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "PUT /api/admin/events/crash-upload/photos?file_name=IMG_0002.jpg HTTP/1.1\r\nHost: {addr}\r\n\
         Cookie: {cookie}\r\nContent-Type: image/jpeg\r\nContent-Length: {}\r\n\r\n",
        bytes.len()
    );
    conn.write_all(head.as_bytes()).await.unwrap();
    conn.write_all(&bytes[..bytes.len() / 2]).await.unwrap();
    conn.flush().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    scale.kill9("replica-a");
    drop(conn);
    scale.restart("replica-a");
    scale.wait_ready("a").await;

    // Nothing of it was kept: no photo, no object.
    let (_, total) = store.list_photos(event_id, None, 0, 10).await.unwrap();
    assert_eq!(total, 1);
    assert_eq!(stored_objects(&client, &s3).await, before);

    // Sent again whole, it is taken.
    let cookie = sign_in_at(&client, &a, "ops@example.com").await;
    upload(&client, &a, &cookie, "crash-upload", "IMG_0002.jpg", bytes).await;
    wait_until("the photo sent again processed", &scale, async || {
        counts(&client, &a, &cookie, "crash-upload").await["ready"] == 2
    })
    .await;
    store.close().await;
}
