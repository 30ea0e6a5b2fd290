//! Cameras over FTP and FTPS: Python's own `ftplib` (`ftp/camera.py`) signs in with an
//! e-mail and an upload token, sees its account's events as folders, uploads to a
//! temporary name and renames, has a transfer cut off by a reset and resumes it with
//! `REST`, and stores over TLS; every file becomes a photo of the event, once, whole.

use std::net::TcpListener;

use raceshot_store::Backend;

use crate::helpers::{TestApp, event, noisy_jpeg, now, sha256};

/// A port free now (the FTP server binds it itself).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn camera(port: u16, token: &str, files: &[std::path::PathBuf], tls: bool) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/ftp/camera.py");
    let mut cmd = tokio::process::Command::new("python3");
    cmd.arg(script)
        .args([
            "127.0.0.1",
            &port.to_string(),
            "ann@example.com",
            token,
            "bkk-run",
            "other-run",
        ])
        .args(files);
    if tls {
        cmd.arg("tls");
    }
    let out = cmd.output().await.unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    text
}

#[tokio::test]
async fn cameras_upload_over_ftp_and_ftps_resume_a_cut_transfer_and_every_file_becomes_a_photo() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
        let made = std::process::Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            ])
            .args(["-subj", "/CN=localhost", "-keyout"])
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        let port = free_port();
        let passive = free_port();
        let app = TestApp::builder(backend)
            .with_event(event("bkk-run"))
            .with_event(event("other-run"))
            .with_env("RACESHOT__FTP__ADDR", &format!("127.0.0.1:{port}"))
            .with_env(
                "RACESHOT__FTP__PASSIVE_PORTS",
                &format!("{passive}-{}", passive + 10),
            )
            .with_env("RACESHOT__FTP__TLS_CERT", &cert.display().to_string())
            .with_env("RACESHOT__FTP__TLS_KEY", &key.display().to_string())
            .spawn()
            .await;
        app.account(
            "ann@example.com",
            raceshot_store::operators::Role::Photographer,
            &["bkk-run"],
        )
        .await;
        let ann = app
            .store
            .operator_by_email("ann@example.com")
            .await
            .unwrap()
            .unwrap()
            .id;
        let token =
            raceshot_server::services::uploads::issue(&app.store, ann, "camera", "test", now())
                .await
                .unwrap()
                .secret;
        // The server is up once its port answers.
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }

        let photos: Vec<Vec<u8>> = (0..6).map(noisy_jpeg).collect();
        let paths: Vec<std::path::PathBuf> = photos
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                let path = dir.path().join(format!("p{i}.jpg"));
                std::fs::write(&path, bytes).unwrap();
                path
            })
            .collect();
        let said = camera(port, &token, &paths[..3], false).await;
        for step in [
            "wrong token refused",
            "other event refused",
            "renamed",
            "resumed from",
            "rest past the end refused",
            "stored",
        ] {
            assert!(said.contains(step), "{said}");
        }
        camera(port, &token, &paths[3..], true).await;

        let event_id = app.stored_event("bkk-run").await.1.id;
        let hashes: Vec<String> = photos.iter().map(|p| sha256(p)).collect();
        let mut known = app.store.known_hashes(event_id, &hashes).await.unwrap();
        known.sort();
        let mut wanted = hashes.clone();
        wanted.sort();
        assert_eq!(known, wanted, "{said}");
        let counts = app.store.photo_state_counts(event_id).await.unwrap();
        let total: i64 = counts.iter().map(|(_, n)| n).sum();
        assert_eq!(total, 6, "each file once, none half: {counts:?}");
    }
}
