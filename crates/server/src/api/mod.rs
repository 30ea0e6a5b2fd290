//! The HTTP surface: the shop's calls (behind the client token), operations endpoints,
//! public media, bought files streamed from storage (`delivery`), and the OpenAPI document
//! generated from the handlers themselves. What an
//! error answers (status, body, `Retry-After`) is decided here alone, in `error.rs`.

pub mod admin;
pub mod alerts;
pub mod arrivals;
pub mod auth;
pub mod bibsearch;
pub mod cart;
pub mod catalogue;
pub mod certificates;
pub mod contract;
pub mod delivery;
pub mod downloads;
pub mod error;
pub mod extract;
pub mod facesearch;
pub mod line;
pub mod logs;
pub mod media;
pub mod ops;
pub mod orders;
pub mod payments;
pub mod privacy;
pub mod results;
pub mod uploads;
pub mod web;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Request, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Router, middleware};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Raceshot API",
        description = "The event-photo shop: the calls of the shop contract (docs/shop-contract.md), plus the server's own."
    ),
    modifiers(&ClientToken, &ErrorCodes),
    components(schemas(ErrorBody), responses(ErrorAnswer)),
    tags(
        (name = "catalogue", description = "Events, banners and highlight photos"),
        (name = "face search", description = "Find an event's photos of a person by a selfie"),
        (name = "cart", description = "Prices computed by the server"),
        (name = "orders", description = "Orders, their payment and delivery"),
        (name = "payments", description = "Messages from payment gateways"),
        (name = "operations", description = "Health, readiness and metrics"),
        (name = "privacy", description = "Runners' requests to hide the photos that show them"),
        (name = "alerts", description = "Runners told of new photos of them: asked for with a selfie, confirmed, shown and stopped by link"),
        (name = "console", description = "The operator console: sign-in, events, orders, audit log"),
    )
)]
struct ApiDoc;

struct ClientToken;

impl utoipa::Modify for ClientToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        if let Some(components) = openapi.components.as_mut() {
            components.add_security_scheme(
                "client_token",
                SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
            );
        }
    }
}

/// Lists every error code in the contract, so the web app's table of texts for them is
/// checked by its compiler.
struct ErrorCodes;

impl utoipa::Modify for ErrorCodes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        if let Some(RefOr::T(Schema::Object(body))) = components.schemas.get_mut("ErrorBody") {
            let codes = ErrorCode::ALL.iter().map(|c| c.as_str());
            let code = ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("Stable snake_case error code."))
                .enum_values(Some(codes))
                .build();
            body.properties.insert("code".to_owned(), code.into());
        }
    }
}

/// The shop's JSON calls (docs/shop-contract.md, Calls); every one requires the client
/// token.
fn shop_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalogue::pagination))
        .routes(routes!(catalogue::pagination_count))
        .routes(routes!(catalogue::slider_banner))
        .routes(routes!(catalogue::soon))
        .routes(routes!(catalogue::event))
        .routes(routes!(catalogue::event_key_of_image))
        .routes(routes!(catalogue::highlight))
        .routes(routes!(arrivals::arrivals))
        .routes(routes!(facesearch::sign))
        .routes(routes!(facesearch::search))
        .routes(routes!(cart::quote))
        .routes(routes!(logs::cart_log))
        .routes(routes!(orders::create_v1))
        .routes(routes!(orders::create_v3))
        .routes(routes!(orders::inquiry_v1))
        .routes(routes!(orders::inquiry_v3))
        .routes(routes!(orders::card_payment))
        .routes(routes!(orders::find_orders))
        .routes(routes!(orders::send_order_code))
        .routes(routes!(orders::open_found_order))
        .routes(routes!(orders::conf))
        .routes(routes!(alerts::confirm))
        .routes(routes!(alerts::photos, alerts::stop))
}

/// Forms that carry a selfie besides a search: a request to hide one's photos, an alert of
/// new photos; require the client token.
fn privacy_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(privacy::create))
        .routes(routes!(alerts::ask))
}

/// Bib search, the manual page's listing and finding one's result: a few short fields;
/// require the client token.
fn bib_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(bibsearch::bib_search))
        .routes(routes!(bibsearch::manual))
        .routes(routes!(results::search))
}

/// The older one-step selfie upload as a form; requires the client token.
fn selfie_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(facesearch::search_multipart))
}

/// Gateway messages, authorised by their own token or signature.
fn gateway_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(payments::gbp_callback))
        .routes(routes!(payments::opn_webhook))
        .routes(routes!(payments::sandbox_pay))
}

/// Delivery of bought photos: anyone holding the order's uuid (docs/shop-contract.md,
/// Visitors and roles), signed addresses for single files.
fn delivery_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(downloads::photo))
        .routes(routes!(downloads::zip))
        .routes(routes!(downloads::free_photo))
        .routes(routes!(certificates::certificate))
        .routes(routes!(certificates::bought))
}

/// Calls authorised by their own signature instead of the client token.
fn signed_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(facesearch::upload))
}

/// Resumable photo uploads (tus), signed in by an upload token or the console's session.
fn upload_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(uploads::options, uploads::create))
        .routes(routes!(uploads::status, uploads::patch, uploads::terminate))
}

/// What an uploader asks before sending: a small JSON body.
fn upload_check_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(uploads::known))
}

fn ops_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ops::healthz))
        .routes(routes!(ops::readyz))
}

/// Served only on `server.metrics_addr`, an internal address: order volumes and sign-in
/// outcomes are nobody else's business.
fn metrics_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ops::metrics))
}

/// The router of the internal metrics address.
pub fn metrics_router(state: AppState) -> Router {
    let (router, _) = metrics_routes().split_for_parts();
    router.with_state(state)
}

/// The API contract, as committed in `openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, api) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(shop_routes())
        .merge(selfie_routes())
        .merge(bib_routes())
        .merge(privacy_routes())
        .merge(signed_routes())
        .merge(gateway_routes())
        .merge(delivery_routes())
        .merge(ops_routes())
        .merge(upload_routes())
        .merge(upload_check_routes())
        .merge(metrics_routes())
        .merge(admin::routes())
        .split_for_parts();
    api
}

pub fn openapi_json() -> String {
    openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The shop's JSON bodies are small: the largest is an order of 2,000 photo ids
/// (`{"id":1234567},` each, about 32 KB).
pub const SHOP_JSON_BODY_LIMIT: usize = 64 * 1024;

/// Console bodies are forms and small JSON documents.
const ADMIN_BODY_LIMIT: usize = 256 * 1024;

/// A header every answer carries unless its handler set its own.
fn default_header(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// Compresses answers on the fly (brotli or gzip, as the client accepts): JSON and the
/// page. Pictures are compressed already, a ZIP is streamed with its length for the
/// download's progress, and precompressed assets carry their own encoding.
fn compression() -> CompressionLayer<impl tower_http::compression::Predicate> {
    use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
    CompressionLayer::new().br(true).gzip(true).compress_when(
        SizeAbove::new(256)
            .and(NotForContentType::IMAGES)
            .and(NotForContentType::const_new("application/zip"))
            .and(NotForContentType::const_new("application/octet-stream")),
    )
}

/// Nothing is cached unless its handler says so (answers hold personal data), and no
/// refusal or miss is cached at all: a hidden photo or a missing asset must not linger.
async fn cache_policy(req: Request<axum::body::Body>, next: middleware::Next) -> Response {
    let mut response = next.run(req).await;
    let status = response.status();
    let headers = response.headers_mut();
    if status.is_client_error()
        || status.is_server_error()
        || !headers.contains_key(header::CACHE_CONTROL)
    {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

pub fn router(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let (shop, _) = shop_routes().split_for_parts();
    let (selfie, _) = selfie_routes().split_for_parts();
    let (bib, _) = bib_routes().split_for_parts();
    let (privacy, _) = privacy_routes().split_for_parts();
    // Selfie bodies (up to three selfies) are checked against the shop's 5 MB a file by the
    // handlers themselves, so that an oversized file gets the API's own error code.
    let shop = shop
        .layer(DefaultBodyLimit::max(SHOP_JSON_BODY_LIMIT))
        .merge(selfie.layer(DefaultBodyLimit::max(
            crate::services::search::MAX_PEOPLE * facesearch::MAX_SELFIE_BYTES + 64 * 1024,
        )))
        .merge(bib.layer(DefaultBodyLimit::max(bibsearch::BODY_LIMIT)))
        .merge(privacy.layer(DefaultBodyLimit::max(
            facesearch::MAX_SELFIE_BYTES + 64 * 1024,
        )))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_client_token,
        ));
    let (signed, _) = signed_routes().split_for_parts();
    let signed = signed.layer(DefaultBodyLimit::disable());
    let (gateway, _) = gateway_routes().split_for_parts();
    let gateway = gateway.layer(DefaultBodyLimit::max(payments::MAX_CALLBACK_BYTES));
    let (delivery, _) = delivery_routes().split_for_parts();
    let (ops, _) = ops_routes().split_for_parts();
    // A PATCH's bytes are streamed to storage part by part and bounded by the upload's
    // announced length (`services::uploads::resumable`), not held whole.
    let (upload, _) = upload_routes().split_for_parts();
    let (tus_name, tus_value) = uploads::version_header();
    let (upload_check, _) = upload_check_routes().split_for_parts();
    let upload = upload
        .layer(DefaultBodyLimit::disable())
        .layer(SetResponseHeaderLayer::overriding(tus_name, tus_value))
        .merge(upload_check.layer(DefaultBodyLimit::max(uploads::KNOWN_BODY_LIMIT)));
    let (console, _) = admin::routes().split_for_parts();
    let console = console
        .layer(DefaultBodyLimit::max(ADMIN_BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            admin::same_origin_writes,
        ));
    let doc = Arc::new(openapi_json());
    let timeout = state.config.server.request_timeout;
    let hsts = state
        .public_url
        .starts_with("https://")
        .then(|| HeaderValue::from_static("max-age=31536000; includeSubDomains"));

    let router = Router::new()
        .merge(shop)
        .merge(signed)
        .merge(gateway)
        .merge(delivery)
        .merge(ops)
        .merge(upload)
        .merge(console)
        .route("/api/orders/{order_uuid}/qr.png", get(payments::qr_image))
        .route("/api/line/link/order/{order_uuid}", get(line::link_order))
        .route("/api/line/link/alert/{alert_id}", get(line::link_alert))
        .route("/api/line/callback", get(line::callback))
        .route(
            "/sandbox/pay/{order_uuid}",
            get(payments::sandbox_page).post(payments::sandbox_page_submit),
        )
        .route(
            "/api/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        doc.to_string(),
                    )
                }
            }),
        )
        .route("/media/{event_key}/{kind}/{name}", get(media::media));
    let routes = web::mount(router, &state)
        .method_not_allowed_fallback(|| async {
            ShopError::new(
                ErrorCode::MethodNotAllowed,
                "method not allowed on this route",
            )
        })
        .layer(middleware::from_fn(ops::track))
        .with_state(state);
    // What every answer goes through, outermost first. It wraps the routed router once,
    // as one service: `Router::layer` would wrap every route in each layer, and a route's
    // boxed service is cloned at each wrapping on every request.
    let house = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
        .layer(
            TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
                // The fields are worked out only when the span is logged.
                tracing::info_span!(
                    "request",
                    method = %req.method(),
                    path = %crate::infra::telemetry::loggable_path(req.uri()),
                    request_id = %req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-"),
                )
            }),
        )
        .layer(PropagateRequestIdLayer::new(request_id))
        .layer(compression())
        .layer(middleware::from_fn(cache_policy))
        // No MIME sniffing, no framing by other sites, no referrer beyond the origin, a
        // content policy that allows nothing (JSON and images need nothing; pages the shop
        // serves set their own), and HSTS when the shop is served over https.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            hsts,
        ))
        .layer(default_header(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; frame-ancestors 'none'",
        ))
        .layer(default_header(
            header::REFERRER_POLICY,
            "strict-origin-when-cross-origin",
        ))
        .layer(default_header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(default_header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(CatchPanicLayer::custom(|_| {
            ShopError::internal(anyhow::anyhow!("handler panicked")).into_response()
        }))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        .service(routes);
    Router::new().fallback_service(house)
}
