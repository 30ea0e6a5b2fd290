//! Upload tokens: made in the console (for one's own account, or by an admin for any) and
//! on the command line, shown once, listed with their last use, revoked, audited; a live
//! token signs its account in, a revoked one nobody.

use std::process::Command;

use raceshot_store::Backend;
use raceshot_store::operators::Role;
use raceshot_store::testing::TestDatabase;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, event, json, now};

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
