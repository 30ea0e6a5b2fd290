//! Upload tokens: made in the console (for one's own account, or by an admin for any) and
//! on the command line, shown once, listed with their last use, revoked, audited; a live
//! token signs its account in, a revoked one nobody.

use std::process::Command;

use tokio::io::AsyncWriteExt;

use raceshot_store::Backend;
use raceshot_store::operators::Role;
use raceshot_store::testing::TestDatabase;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, event, json, noisy_jpeg, now, sha256};

const TOKENS: &str = "/api/admin/upload-tokens";

async fn tokens(app: &TestApp, cookie: &str) -> Vec<Value> {
    let list = json(app.call(Method::GET, TOKENS, Some(cookie), None).await).await;
    list["tokens"].as_array().unwrap().clone()
}

#[tokio::test]
async fn tokens_are_shown_once_scoped_to_their_account_revoked_and_audited() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("bkk-run"))
            .spawn()
            .await;
        app.account("boss@example.com", Role::Admin, &[]).await;
        app.account("ann@example.com", Role::Photographer, &["bkk-run"])
            .await;
        app.account("bob@example.com", Role::Photographer, &[])
            .await;
        let (boss, ann) = (
            app.sign_in("boss@example.com").await,
            app.sign_in("ann@example.com").await,
        );

        // An admin makes one for a photographer, by e-mail; its secret comes this once.
        let made = app
            .call(
                Method::POST,
                TOKENS,
                Some(&boss),
                Some(json!({"label": " Nikon Z6 ", "account_email": "ANN@example.com"})),
            )
            .await;
        assert_eq!(made.status(), 201);
        let made = json(made).await;
        let secret = made["secret"].as_str().unwrap().to_owned();
        assert!(secret.starts_with("rsu_") && secret.len() == 52, "{secret}");
        assert_eq!(made["token"]["account_email"], "ann@example.com");
        assert_eq!(made["token"]["label"], "Nikon Z6");
        assert_eq!(made["token"]["hint"], &secret[secret.len() - 4..]);
        assert_eq!(made["token"]["last_used_at"], Value::Null);
        let camera_id = made["token"]["id"].as_i64().unwrap();

        // A photographer makes her own, and not another's.
        let own = app
            .call(
                Method::POST,
                TOKENS,
                Some(&ann),
                Some(json!({"label": "laptop"})),
            )
            .await;
        assert_eq!(own.status(), 201);
        let laptop = json(own).await;
        let refused = app
            .call(
                Method::POST,
                TOKENS,
                Some(&ann),
                Some(json!({"label": "x", "account_email": "bob@example.com"})),
            )
            .await;
        assert_error(refused, 403, "forbidden").await;
        for label in ["", "a\nb", &"x".repeat(61)] {
            let bad = app
                .call(
                    Method::POST,
                    TOKENS,
                    Some(&ann),
                    Some(json!({ "label": label })),
                )
                .await;
            assert_error(bad, 422, "invalid_field").await;
        }
        let nobody = app
            .call(
                Method::POST,
                TOKENS,
                Some(&boss),
                Some(json!({"label": "x", "account_email": "nobody@example.com"})),
            )
            .await;
        assert_error(nobody, 404, "not_found").await;

        // Listings never hold a secret; a photographer sees her own tokens only.
        let boss_token = app
            .call(
                Method::POST,
                TOKENS,
                Some(&boss),
                Some(json!({"label": "desk"})),
            )
            .await;
        let boss_id = json(boss_token).await["token"]["id"].as_i64().unwrap();
        let listed = tokens(&app, &ann).await;
        assert_eq!(listed.len(), 2, "{listed:?}");
        assert!(
            listed
                .iter()
                .all(|t| t["account_email"] == "ann@example.com")
        );
        assert_eq!(tokens(&app, &boss).await.len(), 3);
        let listing = serde_json::to_string(&tokens(&app, &boss).await).unwrap();
        assert!(
            !listing.contains(&secret) && !listing.contains("rsu_"),
            "{listing}"
        );

        // A live token signs its account in, and the use shows in the list.
        let store = &app.store;
        let signed = raceshot_server::services::uploads::authenticate(store, &secret, now())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(signed.email, "ann@example.com");
        let used = tokens(&app, &ann).await;
        let camera = used.iter().find(|t| t["id"] == camera_id).unwrap();
        assert!(camera["last_used_at"].is_string(), "{camera}");
        for wrong in [
            "",
            "rsu_",
            "rsu_00",
            secret.trim_start_matches("rsu_"),
            &secret[..51],
        ] {
            let nobody = raceshot_server::services::uploads::authenticate(store, wrong, now());
            assert!(nobody.await.unwrap().is_none(), "{wrong}");
        }

        // Revoking: one's own, not another's; then the token signs in nobody.
        let revoke = async |id: i64, cookie: &str| {
            let path = format!("{TOKENS}/{id}");
            app.call(Method::DELETE, &path, Some(cookie), None).await
        };
        assert_error(revoke(boss_id, &ann).await, 404, "not_found").await;
        assert_eq!(revoke(camera_id, &ann).await.status(), 204);
        assert_error(revoke(camera_id, &ann).await, 404, "not_found").await;
        let gone = raceshot_server::services::uploads::authenticate(store, &secret, now());
        assert!(gone.await.unwrap().is_none());
        let listed = tokens(&app, &ann).await;
        let camera = listed.iter().find(|t| t["id"] == camera_id).unwrap();
        assert!(camera["revoked_at"].is_string(), "{camera}");
        let laptop_id = laptop["token"]["id"].as_i64().unwrap();
        assert_eq!(
            revoke(laptop_id, &boss).await.status(),
            204,
            "admins revoke any"
        );

        // Every making and revoking is in the audit log, by account id.
        let audit = json(
            app.call(Method::GET, "/api/admin/audit", Some(&boss), None)
                .await,
        )
        .await;
        let acts: Vec<(String, String)> = audit["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"].as_str().unwrap().starts_with("upload_token."))
            .map(|e| {
                (
                    e["action"].as_str().unwrap().to_owned(),
                    e["target"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        for (action, id) in [
            ("upload_token.create", camera_id),
            ("upload_token.create", laptop_id),
            ("upload_token.revoke", camera_id),
            ("upload_token.revoke", laptop_id),
        ] {
            let wanted = (action.to_owned(), format!("upload_token:{id}"));
            assert!(acts.contains(&wanted), "{acts:?}");
        }
        assert!(
            !audit.to_string().contains(&secret),
            "the secret is never logged"
        );
    }
}

#[tokio::test]
async fn the_command_line_prints_a_new_token_on_its_last_line() {
    let db = TestDatabase::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let store = db.store().await;
    raceshot_server::commands::admin::create_user(
        &store,
        "ann@example.com",
        Role::Photographer,
        crate::helpers::PASSWORD,
        &[],
        now(),
    )
    .await
    .unwrap();
    let run = |email: &str| {
        Command::new(env!("CARGO_BIN_EXE_raceshot"))
            .args([
                "admin",
                "upload-token",
                "--email",
                email,
                "--label",
                "Canon R6",
            ])
            .env("RACESHOT__DATA_DIR", dir.path())
            .env("RACESHOT__DATABASE__URL", &db.settings.url)
            .output()
            .unwrap()
    };
    let out = run("Ann@Example.com");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let secret = stdout.lines().last().unwrap();
    assert!(secret.starts_with("rsu_"), "{stdout}");
    let signed = raceshot_server::services::uploads::authenticate(&store, secret, now())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(signed.email, "ann@example.com");
    let entries = store.audit_entries(None, 10).await.unwrap();
    assert!(
        entries
            .iter()
            .any(|e| e.action == "upload_token.create" && e.actor.starts_with("cli:")),
        "{entries:?}"
    );

    let unknown = run("nobody@example.com");
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("has no account"));
}

fn b64(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// A tus request: the protocol's version header, and the upload token.
fn tus(app: &TestApp, method: Method, url: &str, token: &str) -> reqwest::RequestBuilder {
    let url = if url.starts_with("http") {
        url.to_owned()
    } else {
        app.url(url)
    };
    app.client
        .request(method, url)
        .header("tus-resumable", "1.0.0")
        .bearer_auth(token)
}

fn header(resp: &reqwest::Response, name: &str) -> String {
    resp.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

async fn announce(
    app: &TestApp,
    token: &str,
    event: &str,
    name: &str,
    length: usize,
) -> reqwest::Response {
    tus(app, Method::POST, "/api/uploads", token)
        .header("upload-length", length.to_string())
        .header(
            "upload-metadata",
            format!("event {},filename {}", b64(event), b64(name)),
        )
        .send()
        .await
        .unwrap()
}

async fn send(
    app: &TestApp,
    token: &str,
    at: &str,
    offset: usize,
    bytes: Vec<u8>,
) -> reqwest::Response {
    tus(app, Method::PATCH, at, token)
        .header("content-type", "application/offset+octet-stream")
        .header("upload-offset", offset.to_string())
        .body(bytes)
        .send()
        .await
        .unwrap()
}

/// A photographer's account on `events`, and an upload token of it.
async fn photographer(app: &TestApp, email: &str, events: &[&str]) -> (i64, String) {
    app.account(email, Role::Photographer, events).await;
    let id = app
        .store
        .operator_by_email(email)
        .await
        .unwrap()
        .unwrap()
        .id;
    let token = raceshot_server::services::uploads::issue(&app.store, id, "camera", "test", now())
        .await
        .unwrap()
        .secret;
    (id, token)
}

#[tokio::test]
async fn resumable_uploads_follow_tus_resume_after_a_cut_and_become_photos_once() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("bkk-run"))
            .with_event(event("other-run"))
            .spawn()
            .await;
        let (ann_id, ann) = photographer(&app, "ann@example.com", &["bkk-run"]).await;
        let (bob_id, bob) = photographer(&app, "bob@example.com", &["bkk-run"]).await;

        // What the server offers.
        let options = app
            .client
            .request(Method::OPTIONS, app.url("/api/uploads"))
            .send()
            .await
            .unwrap();
        assert_eq!(options.status(), 204);
        assert_eq!(header(&options, "tus-version"), "1.0.0");
        assert_eq!(
            header(&options, "tus-extension"),
            "creation,termination,expiration"
        );
        assert_eq!(
            header(&options, "tus-max-size"),
            (60 * 1024 * 1024).to_string()
        );

        // Who may announce what.
        let file = noisy_jpeg(1);
        let len = file.len();
        assert!(len > 100_000, "{len}");
        let anonymous = app
            .client
            .post(app.url("/api/uploads"))
            .header("tus-resumable", "1.0.0")
            .send()
            .await
            .unwrap();
        assert_eq!(header(&anonymous, "tus-resumable"), "1.0.0");
        assert_error(anonymous, 401, "not_signed_in").await;
        let wrong = format!("rsu_{}", "0".repeat(48));
        assert_error(
            announce(&app, &wrong, "bkk-run", "a.jpg", len).await,
            401,
            "not_signed_in",
        )
        .await;
        assert_error(
            announce(&app, &ann, "other-run", "a.jpg", len).await,
            403,
            "forbidden",
        )
        .await;
        assert_error(
            announce(&app, &ann, "no-run", "a.jpg", len).await,
            404,
            "event_not_found",
        )
        .await;
        let too_large = announce(&app, &ann, "bkk-run", "a.jpg", 61 * 1024 * 1024).await;
        assert_error(too_large, 413, "payload_too_large").await;
        let no_metadata = tus(&app, Method::POST, "/api/uploads", &ann)
            .header("upload-length", "10")
            .send()
            .await
            .unwrap();
        assert_error(no_metadata, 422, "invalid_field").await;
        let old_client = app
            .client
            .post(app.url("/api/uploads"))
            .header("tus-resumable", "0.2.2")
            .bearer_auth(&ann)
            .header("upload-length", "10")
            .send()
            .await
            .unwrap();
        assert_error(old_client, 412, "tus_version_unsupported").await;

        let created = announce(&app, &ann, "bkk-run", "DCIM/100NIKON/DSC_0001.JPG", len).await;
        assert_eq!(created.status(), 201);
        assert!(!header(&created, "upload-expires").is_empty());
        let at = header(&created, "location");
        assert!(at.starts_with(&app.url("/api/uploads/")), "{at}");

        // The first part; then what the protocol refuses.
        let half = len / 2;
        assert_eq!(
            send(&app, &ann, &at, 0, file[..half].to_vec())
                .await
                .status(),
            204
        );
        let form = tus(&app, Method::PATCH, &at, &ann)
            .header("content-type", "application/octet-stream")
            .header("upload-offset", half.to_string())
            .body(vec![0u8; 10])
            .send()
            .await
            .unwrap();
        assert_error(form, 415, "unsupported_media_type").await;
        let behind = send(&app, &ann, &at, 10, file[10..half].to_vec()).await;
        assert_error(behind, 409, "upload_offset_conflict").await;
        let others = tus(&app, Method::HEAD, &at, &bob).send().await.unwrap();
        assert_eq!(
            others.status(),
            404,
            "another account's upload is not found"
        );

        // A connection cut in the middle of the second part keeps what arrived.
        // The cut is a real one: the connection closes with the request's body unfinished.
        let path = at.trim_start_matches(&app.url(""));
        let host = app
            .url("")
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let mut link = tokio::net::TcpStream::connect(&host).await.unwrap();
        let head = format!(
            "PATCH {path} HTTP/1.1\r\nHost: {host}\r\nTus-Resumable: 1.0.0\r\n\
             Authorization: Bearer {ann}\r\nContent-Type: application/offset+octet-stream\r\n\
             Upload-Offset: {half}\r\nContent-Length: {}\r\n\r\n",
            len - half
        );
        link.write_all(head.as_bytes()).await.unwrap();
        link.write_all(&file[half..half + 50_000]).await.unwrap();
        link.flush().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        drop(link);
        let mut stands = half;
        for _ in 0..50 {
            let head = tus(&app, Method::HEAD, &at, &ann).send().await.unwrap();
            assert_eq!(head.status(), 200);
            assert_eq!(header(&head, "upload-length"), len.to_string());
            assert_eq!(header(&head, "cache-control"), "no-store");
            stands = header(&head, "upload-offset").parse().unwrap();
            if stands == half + 50_000 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert_eq!(stands, half + 50_000, "every byte that arrived is kept");

        // Resumed from where the server stands: the last byte makes the photo.
        let done = send(&app, &ann, &at, stands, file[stands..].to_vec()).await;
        assert_eq!(done.status(), 204);
        assert_eq!(header(&done, "upload-offset"), len.to_string());
        let photo_id: i64 = header(&done, "raceshot-photo-id").parse().unwrap();
        assert_eq!(header(&done, "raceshot-photo-result"), "queued");
        let work = app.store.photo_work(photo_id).await.unwrap().unwrap();
        assert_eq!(work.original_file_name, "DSC_0001.JPG");
        assert_eq!(work.event_key.as_str(), "bkk-run");
        let original = app
            .state
            .objects
            .get(&raceshot_store::ObjectKey::new(
                &work.event_key,
                raceshot_store::ObjectKind::Original,
                &work.storage_name,
            ))
            .await
            .unwrap();
        assert_eq!(original.as_ref(), file.as_slice(), "whole, byte for byte");
        let (_, bkk) = app.stored_event("bkk-run").await;
        let unknown = "0".repeat(64);
        let asked = [sha256(&file), unknown];
        assert_eq!(
            app.store.known_hashes(bkk.id, &asked).await.unwrap(),
            [sha256(&file)]
        );
        let finished = send(&app, &ann, &at, len, vec![1]).await;
        assert_error(finished, 409, "upload_offset_conflict").await;

        // The same file again, by another photographer: the event has it once.
        let again = announce(&app, &bob, "bkk-run", "copy.jpg", len).await;
        let again_at = header(&again, "location");
        let repeat = send(&app, &bob, &again_at, 0, file.clone()).await;
        assert_eq!(header(&repeat, "raceshot-photo-id"), photo_id.to_string());
        assert_eq!(header(&repeat, "raceshot-photo-result"), "exists");

        // Abandoned: deleted with what arrived. Expired: 410, then swept.
        let other = noisy_jpeg(2);
        let abandoned = announce(&app, &ann, "bkk-run", "b.jpg", other.len()).await;
        let abandoned_at = header(&abandoned, "location");
        send(&app, &ann, &abandoned_at, 0, other[..1000].to_vec()).await;
        let deleted = tus(&app, Method::DELETE, &abandoned_at, &ann)
            .send()
            .await
            .unwrap();
        assert_eq!(deleted.status(), 204);
        let gone = tus(&app, Method::HEAD, &abandoned_at, &ann)
            .send()
            .await
            .unwrap();
        assert_eq!(gone.status(), 404);
        let event_id = app.stored_event("bkk-run").await.1.id;
        app.store
            .create_upload(
                &raceshot_store::uploads::NewUpload {
                    id: "0123456789abcdef0123456789abcdef",
                    operator_id: ann_id,
                    event_id,
                    file_name: "late.jpg",
                    length: 10,
                    expires_at: now() - chrono::Duration::seconds(1),
                },
                now() - chrono::Duration::days(1),
            )
            .await
            .unwrap();
        let late = tus(
            &app,
            Method::HEAD,
            "/api/uploads/0123456789abcdef0123456789abcdef",
            &ann,
        )
        .send()
        .await
        .unwrap();
        assert_eq!(late.status(), 410);
        app.run_retention().await.unwrap();
        assert!(
            app.store
                .upload("0123456789abcdef0123456789abcdef")
                .await
                .unwrap()
                .is_none()
        );

        // An account holds at most 500 unfinished uploads.
        let open = raceshot_server::services::uploads::resumable::MAX_OPEN_UPLOADS;
        for i in 0..open {
            let id = format!("{i:032x}");
            let new = raceshot_store::uploads::NewUpload {
                id: &id,
                operator_id: bob_id,
                event_id,
                file_name: "open.jpg",
                length: 10,
                expires_at: now() + chrono::Duration::hours(1),
            };
            app.store.create_upload(&new, now()).await.unwrap();
        }
        let crowded = announce(&app, &bob, "bkk-run", "d.jpg", 10).await;
        assert_error(crowded, 429, "rate_limited").await;

        // A revoked token sends nothing more.
        let tokens = app
            .store
            .upload_tokens(raceshot_store::upload_tokens::TokenScope::All)
            .await
            .unwrap();
        let ann_token = tokens.iter().find(|t| t.operator_id == ann_id).unwrap();
        raceshot_server::services::uploads::revoke(
            &app.store,
            ann_token.id,
            raceshot_store::upload_tokens::TokenScope::All,
            "test",
            now(),
        )
        .await
        .unwrap();
        assert_error(
            announce(&app, &ann, "bkk-run", "c.jpg", 10).await,
            401,
            "not_signed_in",
        )
        .await;
    }
}

/// `raceshot upload`, the real binary, against the running shop.
/// Run on the runtime's side, since the shop answers on this very runtime.
fn uploader(
    app: &TestApp,
    token: &str,
    event: &str,
    state: &std::path::Path,
) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_raceshot"));
    cmd.args([
        "upload",
        "--server",
        app.url("").trim_end_matches('/'),
        "--event",
        event,
    ])
    .args(["--token", token, "--state"])
    .arg(state);
    cmd
}

#[tokio::test]
async fn the_uploader_skips_what_the_event_has_resumes_from_its_state_and_watches_a_folder() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("bkk-run"))
        .with_event(event("other-run"))
        .spawn()
        .await;
    let (_, token) = photographer(&app, "ann@example.com", &["bkk-run"]).await;
    let event_id = app.stored_event("bkk-run").await.1.id;
    let dir = tempfile::tempdir().unwrap();
    let card = dir.path().join("card");
    std::fs::create_dir_all(card.join("DCIM/100CANON")).unwrap();
    let (a, b) = (noisy_jpeg(11), noisy_jpeg(12));
    std::fs::write(card.join("DCIM/100CANON/IMG_0001.JPG"), &a).unwrap();
    std::fs::write(card.join("DCIM/100CANON/IMG_0002.JPG"), &b).unwrap();
    std::fs::write(card.join("notes.txt"), "not a photo").unwrap();
    let state = dir.path().join("state.json");
    let run = async |cmd: &mut tokio::process::Command| {
        let out = cmd.output().await.unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let known = async |hashes: &[String]| app.store.known_hashes(event_id, hashes).await.unwrap();

    // Everything new is sent; a second run sends nothing.
    let (ok, out, err) = run(uploader(&app, &token, "bkk-run", &state).arg(&card)).await;
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("2 sent, 0 already in the event, 0 failed"),
        "{out}"
    );
    let hashes = [sha256(&a), sha256(&b)];
    assert_eq!(known(&hashes).await.len(), 2);
    let (ok, out, _) = run(uploader(&app, &token, "bkk-run", &state).arg(&card)).await;
    assert!(
        ok && out.contains("0 sent, 2 already in the event"),
        "{out}"
    );

    // Refusals: a wrong token, an event the account may not work on.
    let (ok, _, err) =
        run(uploader(&app, &format!("rsu_{}", "1".repeat(48)), "bkk-run", &state).arg(&card)).await;
    assert!(!ok && err.contains("401"), "{err}");
    let (ok, _, err) = run(uploader(&app, &token, "other-run", &state).arg(&card)).await;
    assert!(!ok && err.contains("403"), "{err}");

    // A file half sent before a restart is finished from where the shop stands.
    let c = noisy_jpeg(13);
    let c_path = card.join("DCIM/100CANON/IMG_0003.JPG");
    std::fs::write(&c_path, &c).unwrap();
    let created = announce(&app, &token, "bkk-run", "IMG_0003.JPG", c.len()).await;
    let url = header(&created, "location");
    assert_eq!(
        send(&app, &token, &url, 0, c[..c.len() / 3].to_vec())
            .await
            .status(),
        204
    );
    let modified = std::fs::metadata(&c_path)
        .unwrap()
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let remembered = json!({"event": "bkk-run", "pending": {
        c_path.display().to_string(): {"size": c.len(), "modified": modified, "url": url}}});
    std::fs::write(&state, remembered.to_string()).unwrap();
    let (ok, out, err) = run(uploader(&app, &token, "bkk-run", &state).arg(&card)).await;
    assert!(
        ok && out.contains("1 sent, 2 already in the event"),
        "{out}{err}"
    );
    let id = url.rsplit('/').next().unwrap();
    let resumed = app.store.upload(id).await.unwrap().unwrap();
    assert!(
        resumed.photo_id.is_some(),
        "the half-sent upload itself was finished"
    );
    let left: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(left["pending"], json!({}), "nothing left pending");

    // --watch sends a file that appears later, once it is whole.
    let tether = dir.path().join("tether");
    std::fs::create_dir_all(&tether).unwrap();
    let mut watching = uploader(&app, &token, "bkk-run", &state)
        .arg("--watch")
        .arg(&tether)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let d = noisy_jpeg(14);
    std::fs::write(tether.join("DSC_9001.JPG"), &d).unwrap();
    let mut arrived = false;
    for _ in 0..100 {
        if !known(&[sha256(&d)]).await.is_empty() {
            arrived = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    watching.kill().await.unwrap();
    assert!(arrived, "the watched file was sent");
}
