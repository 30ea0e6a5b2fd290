//! The FTP server for cameras (and FTPS with `AUTH TLS`), inside `raceshot serve` when
//! `ftp.addr` is set; the protocol is `libunftp`'s. Login is the account's e-mail and an
//! upload token. The root lists the events the account may work on, as folders; a file
//! stored under `/{event_key}/` (subfolders allowed, as cameras make them) becomes a photo
//! of that event the way every upload does (`photos::add_file`: hash dedupe, the same 60 MB
//! limit, audited as `photo.upload`).
//!
//! Bytes land first in the account's incoming folder (`{data_dir}/ftp/{account}/{event}/`),
//! written as they arrive, so a cut transfer keeps what came and a `REST` + `STOR`
//! continues it. A file is handed on once it is whole: after a `STOR` to a photo's name
//! (`.jpg`, `.jpeg`, `.png`) or a rename onto one (cameras upload to a temporary name),
//! and only if it ends as a JPEG or PNG ends, so a transfer that broke off never yields
//! half a photo. Handed-on files leave the incoming folder; nothing is ever read back.
//! A file half sent waits a day for its `REST` ([`INCOMING_TTL`]); the retention job then
//! deletes it. Ten failed logins from one address within five minutes block it for that
//! while.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use async_trait::async_trait;
use libunftp::options::{FailedLoginsBlock, FailedLoginsPolicy};
use raceshot_domain::EventKey;
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::operators::{Operator, Role};
use tokio::io::{AsyncRead, AsyncSeekExt, AsyncWriteExt};
use unftp_core::auth::{
    AuthenticationError, Authenticator, Credentials, Principal, UserDetail, UserDetailError,
    UserDetailProvider,
};
use unftp_core::storage::{
    Error, ErrorKind, FEATURE_RESTART, Fileinfo, Metadata, Result, StorageBackend,
};

use crate::app::state::AppState;
use crate::config::FtpConfig;
use crate::services::operators::{actor_of, may_work_on, normalise_email};
use crate::services::photos::{FileAdded, MAX_PHOTO_BYTES, add_file, clean_file_name};
use crate::services::uploads as tokens;

/// A signed-in camera: the account its token belongs to.
#[derive(Debug, Clone)]
pub struct Camera(Operator);

impl fmt::Display for Camera {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", actor_of(self.0.id))
    }
}

impl UserDetail for Camera {
    fn account_enabled(&self) -> bool {
        !self.0.disabled
    }
}

/// Checks the e-mail and upload token of a login.
struct TokenLogin(AppState);

impl fmt::Debug for TokenLogin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenLogin")
    }
}

#[async_trait]
impl Authenticator for TokenLogin {
    async fn authenticate(
        &self,
        username: &str,
        creds: &Credentials,
    ) -> std::result::Result<Principal, AuthenticationError> {
        let secret = creds
            .password
            .as_deref()
            .ok_or(AuthenticationError::BadPassword)?;
        let state = &self.0;
        let operator = tokens::authenticate(&state.store, secret.trim(), state.now())
            .await
            .map_err(|e| AuthenticationError::with_source("checking the token", e))?
            .ok_or(AuthenticationError::BadPassword)?;
        if operator.email != normalise_email(username) {
            return Err(AuthenticationError::BadUser);
        }
        Ok(Principal {
            username: operator.email,
        })
    }
}

/// The account of a signed-in e-mail.
struct Accounts(AppState);

impl fmt::Debug for Accounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Accounts")
    }
}

#[async_trait]
impl UserDetailProvider for Accounts {
    type User = Camera;

    async fn provide_user_detail(
        &self,
        principal: &Principal,
    ) -> std::result::Result<Camera, UserDetailError> {
        self.0
            .store
            .operator_by_email(&principal.username)
            .await
            .map_err(|e| UserDetailError::Generic(e.to_string()))?
            .filter(|o| !o.disabled)
            .map(Camera)
            .ok_or_else(|| UserDetailError::UserNotFound {
                username: principal.username.clone(),
            })
    }
}

/// What a listing shows of a folder or a file.
#[derive(Debug, Clone)]
pub struct Entry {
    len: u64,
    dir: bool,
    modified: SystemTime,
}

impl Metadata for Entry {
    fn len(&self) -> u64 {
        self.len
    }
    fn is_dir(&self) -> bool {
        self.dir
    }
    fn is_file(&self) -> bool {
        !self.dir
    }
    fn is_symlink(&self) -> bool {
        false
    }
    fn modified(&self) -> Result<SystemTime> {
        Ok(self.modified)
    }
    fn gid(&self) -> u32 {
        0
    }
    fn uid(&self) -> u32 {
        0
    }
}

fn folder() -> Entry {
    Entry {
        len: 0,
        dir: true,
        modified: SystemTime::now(),
    }
}

fn refused(kind: ErrorKind) -> Error {
    Error::from(kind)
}

fn failed(e: impl fmt::Display) -> Error {
    Error::new(ErrorKind::LocalError, std::io::Error::other(e.to_string()))
}

/// A path of the virtual tree: the event (first segment) and the rest. `..` and `.` are
/// resolved; anything else odd is refused.
fn segments(path: &Path) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            Component::RootDir | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => {
                let s = s
                    .to_str()
                    .ok_or_else(|| refused(ErrorKind::FileNameNotAllowedError))?;
                let ok = !s.is_empty()
                    && s.len() <= 200
                    && !s.starts_with('.')
                    && !s.chars().any(|c| c.is_control() || c == '\\');
                if !ok {
                    return Err(refused(ErrorKind::FileNameNotAllowedError));
                }
                out.push(s.to_owned());
            }
            Component::Prefix(_) => return Err(refused(ErrorKind::FileNameNotAllowedError)),
        }
    }
    Ok(out)
}

fn is_photo_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".jpg") || lower.ends_with(".jpeg") || lower.ends_with(".png")
}

/// Whether a file ends as a whole JPEG (its end-of-image marker, padding aside) or PNG
/// (its `IEND` chunk) ends: a transfer cut short does not.
pub fn ends_whole(bytes: &[u8]) -> bool {
    const IEND: &[u8] = &[0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
    if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
        return bytes.ends_with(IEND);
    }
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    bytes.starts_with(&[0xff, 0xd8]) && bytes[..end].ends_with(&[0xff, 0xd9])
}

/// The virtual tree every camera sees: its account's events, and its incoming folders.
#[derive(Clone)]
pub struct ShopStorage {
    state: AppState,
    incoming: PathBuf,
}

impl fmt::Debug for ShopStorage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ShopStorage({})", self.incoming.display())
    }
}

impl ShopStorage {
    pub fn new(state: AppState) -> Self {
        let incoming = state.config.data_dir.join("ftp");
        Self { state, incoming }
    }

    /// The event named by a path's first segment, if the camera's account may work on it.
    async fn event(&self, user: &Camera, key: &str) -> Result<Event> {
        let key =
            EventKey::parse(key).map_err(|_| refused(ErrorKind::PermanentDirectoryNotAvailable))?;
        let event = self
            .state
            .store
            .any_event_by_key(&key)
            .await
            .map_err(failed)?
            .ok_or_else(|| refused(ErrorKind::PermanentDirectoryNotAvailable))?;
        if !may_work_on(&self.state.store, &user.0, event.id)
            .await
            .map_err(failed)?
        {
            return Err(refused(ErrorKind::PermissionDenied));
        }
        Ok(event)
    }

    /// Where a path's bytes are kept, after checking its event.
    async fn local(&self, user: &Camera, path: &Path) -> Result<(Event, Vec<String>, PathBuf)> {
        let parts = segments(path)?;
        let Some(key) = parts.first() else {
            return Err(refused(ErrorKind::PermissionDenied));
        };
        let event = self.event(user, key).await?;
        let mut local = self.incoming.join(user.0.id.to_string());
        for part in &parts {
            local.push(part);
        }
        Ok((event, parts, local))
    }

    /// Hands a whole photo on to its event and removes it from the incoming folder.
    async fn hand_on(&self, user: &Camera, event: &Event, local: &Path) -> Result<()> {
        let bytes = tokio::fs::read(local).await?;
        if !ends_whole(&bytes) {
            // Kept for a `REST` that finishes it.
            return Err(Error::new(
                ErrorKind::TransientFileNotAvailable,
                std::io::Error::other("the file is not whole yet; resume it"),
            ));
        }
        let raw_name = local
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let name = clean_file_name(raw_name);
        let state = &self.state;
        let added = add_file(
            state.intake(),
            &event.spec.key,
            event.id,
            &name,
            user.0.id,
            bytes,
        )
        .await
        .map_err(failed)?;
        tokio::fs::remove_file(local).await?;
        match added {
            FileAdded::Queued(photo_id) => {
                let detail =
                    serde_json::json!({ "photo_id": photo_id, "file_name": name, "via": "ftp" });
                let target = event_target(&event.spec.key);
                state
                    .store
                    .audit(
                        &actor_of(user.0.id),
                        "photo.upload",
                        &target,
                        &detail,
                        state.now(),
                    )
                    .await
                    .map_err(failed)?;
                Ok(())
            }
            FileAdded::Exists(_) => Ok(()),
            FileAdded::Refused(why) => Err(Error::new(
                ErrorKind::PermanentFileNotAvailable,
                std::io::Error::other(why),
            )),
        }
    }

    /// The events the account may work on, as folders.
    async fn events_of(&self, user: &Camera) -> Result<Vec<String>> {
        let store = &self.state.store;
        let events = store.all_events().await.map_err(failed)?;
        let allowed = match user.0.role {
            Role::Admin => None,
            Role::Photographer => Some(store.operator_event_ids(user.0.id).await.map_err(failed)?),
        };
        Ok(events
            .into_iter()
            .filter(|e| allowed.as_ref().is_none_or(|ids| ids.contains(&e.id)))
            .map(|e| e.spec.key.to_string())
            .collect())
    }
}

#[async_trait]
impl StorageBackend<Camera> for ShopStorage {
    type Metadata = Entry;

    fn supported_features(&self) -> u32 {
        FEATURE_RESTART
    }

    async fn metadata<P: AsRef<Path> + Send + fmt::Debug>(
        &self,
        user: &Camera,
        path: P,
    ) -> Result<Entry> {
        let parts = segments(path.as_ref())?;
        if parts.is_empty() {
            return Ok(folder());
        }
        let (_, parts, local) = self.local(user, path.as_ref()).await?;
        if parts.len() == 1 {
            return Ok(folder());
        }
        let meta = tokio::fs::metadata(&local).await?;
        Ok(Entry {
            len: meta.len(),
            dir: meta.is_dir(),
            modified: meta.modified().unwrap_or_else(|_| SystemTime::now()),
        })
    }

    async fn list<P: AsRef<Path> + Send + fmt::Debug>(
        &self,
        user: &Camera,
        path: P,
    ) -> Result<Vec<Fileinfo<PathBuf, Entry>>> {
        if segments(path.as_ref())?.is_empty() {
            return Ok(self
                .events_of(user)
                .await?
                .into_iter()
                .map(|key| Fileinfo {
                    path: PathBuf::from(key),
                    metadata: folder(),
                })
                .collect());
        }
        let (_, _, local) = self.local(user, path.as_ref()).await?;
        let mut out = Vec::new();
        let Ok(mut dir) = tokio::fs::read_dir(&local).await else {
            return Ok(out);
        };
        while let Some(entry) = dir.next_entry().await? {
            let meta = entry.metadata().await?;
            out.push(Fileinfo {
                path: PathBuf::from(entry.file_name()),
                metadata: Entry {
                    len: meta.len(),
                    dir: meta.is_dir(),
                    modified: meta.modified().unwrap_or_else(|_| SystemTime::now()),
                },
            });
        }
        Ok(out)
    }

    async fn get<P: AsRef<Path> + Send + fmt::Debug>(
        &self,
        _user: &Camera,
        _path: P,
        _start_pos: u64,
    ) -> Result<Box<dyn AsyncRead + Send + Sync + Unpin>> {
        // Photos go in, never out.
        Err(refused(ErrorKind::PermissionDenied))
    }

    async fn put<
        P: AsRef<Path> + Send + fmt::Debug,
        R: AsyncRead + Send + Sync + Unpin + 'static,
    >(
        &self,
        user: &Camera,
        input: R,
        path: P,
        start_pos: u64,
    ) -> Result<u64> {
        let (event, parts, local) = self.local(user, path.as_ref()).await?;
        if parts.len() < 2 {
            return Err(refused(ErrorKind::PermissionDenied));
        }
        if let Some(parent) = local.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        // A `REST` past what arrived would leave a hole: the camera asks `SIZE` first.
        if start_pos > 0 {
            let have = tokio::fs::metadata(&local).await.map_or(0, |m| m.len());
            if start_pos > have {
                return Err(refused(ErrorKind::PermanentFileNotAvailable));
            }
        }
        let mut file = tokio::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(start_pos == 0)
            .open(&local)
            .await?;
        if start_pos > 0 {
            file.set_len(start_pos).await?;
            file.seek(std::io::SeekFrom::Start(start_pos)).await?;
        }
        let room = (MAX_PHOTO_BYTES as u64).saturating_sub(start_pos);
        let mut limited = tokio::io::AsyncReadExt::take(input, room + 1);
        // A transfer that breaks off keeps what came: the error goes to the camera, which
        // resumes with `REST`.
        let copied = tokio::io::copy(&mut limited, &mut file).await;
        file.flush().await?;
        drop(file);
        let written = copied?;
        if written > room {
            tokio::fs::remove_file(&local).await?;
            return Err(refused(ErrorKind::ExceededStorageAllocationError));
        }
        let name = parts.last().map_or("", String::as_str);
        if is_photo_name(name) {
            self.hand_on(user, &event, &local).await?;
        }
        Ok(written)
    }

    async fn del<P: AsRef<Path> + Send + fmt::Debug>(&self, user: &Camera, path: P) -> Result<()> {
        let (_, parts, local) = self.local(user, path.as_ref()).await?;
        if parts.len() < 2 {
            return Err(refused(ErrorKind::PermissionDenied));
        }
        Ok(tokio::fs::remove_file(&local).await?)
    }

    async fn mkd<P: AsRef<Path> + Send + fmt::Debug>(&self, user: &Camera, path: P) -> Result<()> {
        let (_, _, local) = self.local(user, path.as_ref()).await?;
        Ok(tokio::fs::create_dir_all(&local).await?)
    }

    async fn rename<P: AsRef<Path> + Send + fmt::Debug>(
        &self,
        user: &Camera,
        from: P,
        to: P,
    ) -> Result<()> {
        let (event, from_parts, from_local) = self.local(user, from.as_ref()).await?;
        let (to_event, to_parts, to_local) = self.local(user, to.as_ref()).await?;
        if from_parts.len() < 2 || to_parts.len() < 2 || event.id != to_event.id {
            return Err(refused(ErrorKind::PermissionDenied));
        }
        if let Some(parent) = to_local.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        tokio::fs::rename(&from_local, &to_local).await?;
        let name = to_parts.last().map_or("", String::as_str);
        if is_photo_name(name) && tokio::fs::metadata(&to_local).await?.is_file() {
            self.hand_on(user, &event, &to_local).await?;
        }
        Ok(())
    }

    async fn rmd<P: AsRef<Path> + Send + fmt::Debug>(&self, user: &Camera, path: P) -> Result<()> {
        let (_, parts, local) = self.local(user, path.as_ref()).await?;
        if parts.len() < 2 {
            return Err(refused(ErrorKind::PermissionDenied));
        }
        Ok(tokio::fs::remove_dir(&local).await?)
    }

    async fn cwd<P: AsRef<Path> + Send + fmt::Debug>(&self, user: &Camera, path: P) -> Result<()> {
        let parts = segments(path.as_ref())?;
        if parts.is_empty() {
            return Ok(());
        }
        let (_, parts, local) = self.local(user, path.as_ref()).await?;
        if parts.len() == 1 || tokio::fs::metadata(&local).await.is_ok_and(|m| m.is_dir()) {
            Ok(())
        } else {
            Err(refused(ErrorKind::PermanentDirectoryNotAvailable))
        }
    }
}

/// Serves FTP on `config.addr` until the process ends; `None` when FTP is off.
pub fn spawn(
    state: &AppState,
    config: &FtpConfig,
) -> anyhow::Result<Option<tokio::task::JoinHandle<()>>> {
    let Some(addr) = config.addr else {
        return Ok(None);
    };
    let storage = ShopStorage::new(state.clone());
    let mut builder = libunftp::ServerBuilder::<ShopStorage, Camera>::with_user_detail_provider(
        Box::new(move || storage.clone()),
        Arc::new(Accounts(state.clone())),
    )
    .authenticator(Arc::new(TokenLogin(state.clone())))
    .greeting("Raceshot: sign in with your e-mail and an upload token")
    .passive_ports(config.passive_ports.clone())
    .idle_session_timeout(600)
    // Ten failed logins from one address within five minutes shut it out for that while.
    .failed_logins_policy(FailedLoginsPolicy::new(
        10,
        std::time::Duration::from_secs(300),
        FailedLoginsBlock::IP,
    ));
    if let Some((cert, key)) = &config.tls {
        builder = builder.ftps(cert.clone(), key.clone());
    }
    let server = builder.build().map_err(|e| anyhow::anyhow!("ftp: {e}"))?;
    Ok(Some(tokio::spawn(async move {
        if let Err(e) = server.listen(addr.to_string()).await {
            tracing::error!(error = %e, "the FTP server stopped");
        }
    })))
}

/// How long a file half sent by FTP waits in the incoming folder for its `REST`.
pub const INCOMING_TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Deletes incoming files last written more than [`INCOMING_TTL`] ago (transfers never
/// resumed); answers how many. Run by the retention job.
pub async fn sweep_incoming(data_dir: &Path) -> std::io::Result<usize> {
    fn walk(dir: &Path, cutoff: SystemTime, swept: &mut usize) -> std::io::Result<()> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        for entry in entries {
            let entry = entry?;
            let meta = entry.metadata()?;
            if meta.is_dir() {
                walk(&entry.path(), cutoff, swept)?;
            } else if meta.modified().is_ok_and(|at| at < cutoff) {
                std::fs::remove_file(entry.path())?;
                *swept += 1;
            }
        }
        Ok(())
    }
    let root = data_dir.join("ftp");
    let cutoff = SystemTime::now() - INCOMING_TTL;
    tokio::task::spawn_blocking(move || {
        let mut swept = 0;
        walk(&root, cutoff, &mut swept).map(|()| swept)
    })
    .await
    .map_err(std::io::Error::other)?
}
