//! Hide my photos (the right to object, Thai PDPA): a runner files a request with a selfie
//! and a way to reach them; an operator approves or rejects it; every photo of the event
//! showing that face is then hidden from face search, bib search, highlights and the
//! manual page, photos ingested later included, while those already sold stay available
//! to their buyers (delivery never looks at `hidden`). The requester is told through the
//! notification adapters; each step is in the audit log.
//!
//! The selfie is embedded in memory and dropped with the request; only its face template
//! is stored, for as long as the migration `0009_privacy_requests.sql` states: until the
//! decision when rejected, until the event's originals are deleted when approved.

use std::net::IpAddr;

use raceshot_domain::EventKey;
use raceshot_domain::order::{Email, Mobile, mask_email, mask_mobile};
use raceshot_faces::{Embedding, cosine};
use raceshot_store::events::Event;
use raceshot_store::photos::NewFace;
use raceshot_store::privacy::{Decided, Filed, NewPrivacyRequest, PrivacyRequest, PrivacyState};
use sha2::{Digest, Sha256};

use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::search::{by_photo, embed_selfie, no_face};
use crate::state::AppState;
use crate::tasks;

/// The most photos one request is matched against: the shop's own cap on a search's
/// answer (`MAX_FACE_SEARCH_LIMIT`) many times over; a runner is rarely in more.
const MATCH_LIMIT: usize = 20_000;

/// How a requester is reached: a mobile number (digits) or an e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contact {
    Mobile(Mobile),
    Email(Email),
}

impl Contact {
    /// A Thai mobile number (spaces and dashes allowed) or an e-mail address.
    pub fn parse(raw: &str) -> ShopResult<Self> {
        let raw = raw.trim();
        let digits: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        if let Some(m) = Mobile::parse(&digits, Mobile::SEARCH_LENGTH) {
            return Ok(Contact::Mobile(m));
        }
        Email::parse(raw)
            .map(|e| Contact::Email(Email::parse(&e.as_str().to_lowercase()).unwrap_or(e)))
            .ok_or_else(|| ShopError::field("contact", "a mobile number or an e-mail address"))
    }

    /// The stored form: the digits, or the address in lower case.
    pub fn as_str(&self) -> &str {
        match self {
            Contact::Mobile(m) => m.as_str(),
            Contact::Email(e) => e.as_str(),
        }
    }

    /// What answers and logs show of a stored contact.
    pub fn masked(stored: &str) -> String {
        if stored.contains('@') {
            mask_email(stored)
        } else {
            mask_mobile(stored)
        }
    }
}

/// Files a request for `event` from `client`: the selfie must show a face; a contact
/// with an undecided or approved request for the event is told so (409).
pub async fn file(
    state: &AppState,
    event: &Event,
    contact: &Contact,
    selfie: bytes::Bytes,
    client: IpAddr,
) -> ShopResult<String> {
    let face = {
        let _slot = state.search_slots.acquire().await?;
        embed_selfie(state, selfie).await?
    };
    let face = face.ok_or_else(|| no_face("file"))?;
    let id = uuid::Uuid::new_v4().to_string();
    let request = NewPrivacyRequest {
        id: id.clone(),
        event_id: event.id,
        contact: contact.as_str().to_owned(),
        embedding: face.to_bytes(),
        client: hex::encode(Sha256::digest(client.to_string().as_bytes())),
    };
    let now = state.now();
    if state.store.file_privacy_request(&request, now).await? == Filed::Exists {
        return Err(ShopError::new(
            ErrorCode::PrivacyRequestExists,
            "a request from this contact is open or approved for this event",
        ));
    }
    let detail = serde_json::json!({ "contact": Contact::masked(contact.as_str()) });
    state
        .store
        .audit(
            "visitor",
            "privacy.request",
            &format!("privacy:{id}@{}", event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok(id)
}

/// The event's photos showing the request's face, best first (photo id, similarity), at
/// the event's threshold; none once the template is gone.
pub async fn matches(state: &AppState, request: &PrivacyRequest) -> ShopResult<Vec<(i64, f32)>> {
    let Some(bytes) = &request.embedding else {
        return Ok(Vec::new());
    };
    let key = EventKey::parse(&request.event_key).map_err(ShopError::internal)?;
    let Some(event) = state.store.any_event_by_key(&key).await? else {
        return Ok(Vec::new());
    };
    let face =
        Embedding::from_bytes(bytes, state.engine.embedding_dim()).map_err(ShopError::internal)?;
    let hits = state
        .indexes
        .search(
            request.event_id,
            face,
            event.spec.face_threshold as f32,
            MATCH_LIMIT,
        )
        .await
        .map_err(ShopError::internal)?;
    Ok(by_photo(vec![hits])
        .into_iter()
        .map(|p| (p.photo_id, p.similarity))
        .collect())
}

fn decided_already(state: PrivacyState) -> ShopError {
    ShopError::new(
        ErrorCode::PrivacyRequestDecided,
        format!("the request is {} already", state.as_str()),
    )
}

fn not_found() -> ShopError {
    ShopError::new(ErrorCode::NotFound, "no such privacy request")
}

/// Approves a pending request: the photos showing the face are hidden and held, the
/// requester told. Answers the photos hidden.
pub async fn approve(state: &AppState, id: &str, actor: &str) -> ShopResult<Vec<i64>> {
    let request = state
        .store
        .privacy_request(id)
        .await?
        .ok_or_else(not_found)?;
    if request.state != PrivacyState::Pending {
        return Err(decided_already(request.state));
    }
    let photos: Vec<i64> = matches(state, &request)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let now = state.now();
    let hidden = match state
        .store
        .approve_privacy_request(id, &photos, actor, now)
        .await?
    {
        Decided::Now(hidden) => hidden,
        Decided::Already(s) => return Err(decided_already(s)),
        Decided::Missing => return Err(not_found()),
    };
    decided(state, &request, "privacy.approve", actor, hidden.len()).await?;
    Ok(hidden)
}

/// Rejects a pending request: its face template is deleted, the requester told.
pub async fn reject(state: &AppState, id: &str, actor: &str) -> ShopResult<()> {
    let request = state
        .store
        .privacy_request(id)
        .await?
        .ok_or_else(not_found)?;
    match state
        .store
        .reject_privacy_request(id, actor, state.now())
        .await?
    {
        Decided::Now(_) => decided(state, &request, "privacy.reject", actor, 0).await,
        Decided::Already(s) => Err(decided_already(s)),
        Decided::Missing => Err(not_found()),
    }
}

/// The audit entry and the requester's notification of a decision.
async fn decided(
    state: &AppState,
    request: &PrivacyRequest,
    action: &str,
    actor: &str,
    hidden: usize,
) -> ShopResult<()> {
    let now = state.now();
    state
        .store
        .enqueue(&tasks::notify_privacy(state, &request.id), now)
        .await?;
    state.wake_workers();
    let detail = serde_json::json!({
        "contact": Contact::masked(&request.contact),
        "photos_hidden": hidden,
    });
    state
        .store
        .audit(
            actor,
            action,
            &format!("privacy:{}@{}", request.id, request.event_key),
            &detail,
            now,
        )
        .await?;
    Ok(())
}

/// The approved requests (ids) whose face is on a photo with `faces`: at the event's
/// threshold against any of them. `templates` are (request id, template bytes).
pub fn held_for(
    templates: &[(String, Vec<u8>)],
    faces: &[NewFace],
    threshold: f32,
    dim: usize,
) -> Vec<String> {
    let faces: Vec<Embedding> = faces
        .iter()
        .filter_map(|f| Embedding::from_bytes(&f.embedding, dim).ok())
        .collect();
    templates
        .iter()
        .filter(|(_, bytes)| {
            Embedding::from_bytes(bytes, dim)
                .is_ok_and(|t| faces.iter().any(|f| cosine(f, &t) >= threshold))
        })
        .map(|(id, _)| id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_are_mobiles_or_addresses_in_one_form() {
        assert_eq!(
            Contact::parse(" 081-234 5678 ").unwrap().as_str(),
            "0812345678"
        );
        assert_eq!(
            Contact::parse("Runner@Example.COM").unwrap().as_str(),
            "runner@example.com"
        );
        for bad in ["", "12345", "not an address", "a@b"] {
            assert!(Contact::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Contact::masked("0812345678"), mask_mobile("0812345678"));
    }

    #[test]
    fn a_photo_is_held_for_the_requests_whose_face_is_on_it() {
        let e = |v: [f32; 2]| Embedding::from_raw(v.to_vec(), 2).unwrap().to_bytes();
        let face = |v| NewFace {
            embedding: e(v),
            bbox: [0.0; 4],
            landmarks: Vec::new(),
            score: 0.9,
        };
        let templates = vec![
            ("a".to_owned(), e([1.0, 0.0])),
            ("b".to_owned(), e([0.0, 1.0])),
        ];
        let held = held_for(&templates, &[face([0.95, 0.1]), face([-1.0, 0.0])], 0.5, 2);
        assert_eq!(held, ["a"]);
        assert!(held_for(&templates, &[], 0.5, 2).is_empty());
    }
}
