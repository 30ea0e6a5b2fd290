//! `POST /api/privacy/requests`: a runner asks for the photos that show them to be hidden
//! (multipart: `event_key`, `contact`, `file`). The selfie is read into memory, embedded
//! and dropped with the request; only its face template and a small crop of the face are
//! kept with the request, each for its stated time (`crate::services::privacy`).
//!
//! The privacy service answers its own `PrivacyError`; what each of its errors answers
//! here and in the console (`api/admin/privacy.rs`) is the `From` impl below.

use axum::Json;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use super::catalogue::SUCCESS;
use super::facesearch::{multipart_error, read_limited};
use crate::api::error::ErrorAnswer;
use crate::api::extract::ClientIp;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::commerce::{find_event, parse_event_key};
use crate::services::privacy::{self, Contact, PrivacyError};

#[derive(Debug, Serialize, ToSchema)]
pub struct PrivacyRequestCreated {
    #[schema(example = "success")]
    pub status: &'static str,
    pub request_id: String,
}

/// Files a request to hide the photos of an event that show the selfie's face. An operator
/// decides; the requester is told at `contact` (a mobile number or an e-mail address).
/// The selfie must show one person (422 `no_face`, `selfie_many_faces`: another face at
/// least half the size of the largest); a face with an open or approved request for the
/// event is refused (409 `privacy_request_exists`), whoever sends it.
#[utoipa::path(post, path = "/api/privacy/requests", tag = "privacy",
    request_body(content_type = "multipart/form-data", content = Object),
    responses((status = 201, body = PrivacyRequestCreated), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 429, response = ErrorAnswer),
        (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    mut form: Multipart,
) -> ShopResult<(StatusCode, Json<PrivacyRequestCreated>)> {
    state.rate_limits.privacy.check(client)?;
    let (mut file, mut event_key, mut contact) = (None, None, None);
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        match field.name().unwrap_or_default() {
            "file" if file.is_none() => file = Some(read_limited(field).await?),
            "file" => return Err(ShopError::field("file", "one selfie, of the requester")),
            "event_key" => event_key = Some(field.text().await.map_err(multipart_error)?),
            "contact" => contact = Some(field.text().await.map_err(multipart_error)?),
            _ => {}
        }
    }
    let event_key = event_key.ok_or_else(|| ShopError::field("event_key", "is required"))?;
    let event = find_event(&state.catalogue, &parse_event_key(&event_key)?).await?;
    let contact = Contact::parse(contact.as_deref().unwrap_or_default())?;
    let file = file.ok_or_else(|| ShopError::field("file", "is required"))?;
    let request_id = privacy::file(&state.privacy(), &event, &contact, file, client).await?;
    Ok((
        StatusCode::CREATED,
        Json(PrivacyRequestCreated {
            status: SUCCESS,
            request_id,
        }),
    ))
}

/// The privacy service's errors by code: its refusals by their own codes (a request not
/// found is the generic `not_found`), the selfie's as face search answers them, faults as
/// `internal` with their causes.
impl From<PrivacyError> for ShopError {
    fn from(e: PrivacyError) -> Self {
        let message = e.to_string();
        match e {
            PrivacyError::BadContact => ShopError::field("contact", message),
            PrivacyError::ManyFaces => {
                ShopError::new(ErrorCode::SelfieManyFaces, message).with_field("file")
            }
            PrivacyError::Exists => ShopError::new(ErrorCode::PrivacyRequestExists, message),
            PrivacyError::NotFound => ShopError::new(ErrorCode::NotFound, message),
            PrivacyError::Decided(_) => ShopError::new(ErrorCode::PrivacyRequestDecided, message),
            PrivacyError::Selfie(refused) => refused.into(),
            PrivacyError::Store(e) => ShopError::internal(e),
            PrivacyError::Fault(e) => ShopError::internal(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use raceshot_store::StoreError;
    use raceshot_store::privacy::PrivacyState;

    use super::*;

    #[test]
    fn privacy_errors_answer_their_codes_and_faults_keep_their_cause() {
        let answer = |e: PrivacyError| {
            let e = ShopError::from(e);
            (
                e.code(),
                e.message().to_owned(),
                e.blamed_field().map(str::to_owned),
            )
        };
        assert_eq!(
            answer(PrivacyError::ManyFaces),
            (
                ErrorCode::SelfieManyFaces,
                "the selfie shows more than one person; send one showing only the requester"
                    .to_owned(),
                Some("file".to_owned())
            )
        );
        assert_eq!(
            answer(PrivacyError::Decided(PrivacyState::Approved)),
            (
                ErrorCode::PrivacyRequestDecided,
                "the request is approved already".to_owned(),
                None
            )
        );
        assert_eq!(answer(PrivacyError::BadContact).0, ErrorCode::InvalidField);
        assert_eq!(answer(PrivacyError::NotFound).0, ErrorCode::NotFound);
        let busy = PrivacyError::Selfie(crate::infra::search_slots::Busy.into());
        assert_eq!(answer(busy).0, ErrorCode::Busy);

        let fault = ShopError::from(PrivacyError::from(StoreError::Config("gone".into())));
        assert_eq!(fault.code(), ErrorCode::Internal);
        assert!(fault.source().is_some_and(|s| s.is::<StoreError>()));
    }
}
