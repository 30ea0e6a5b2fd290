//! The operator console's API under `/api/admin/`: every route but sign-in needs a
//! session, and says itself which role (or which assigned event) it needs.

pub mod audit;
pub mod auth;
pub mod events;
pub mod orders;
pub mod photos;
pub mod settings;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(auth::login))
        .routes(routes!(auth::logout))
        .routes(routes!(auth::me))
        .routes(routes!(events::list))
        .routes(routes!(events::get, events::put))
        .routes(routes!(events::close))
        .routes(routes!(orders::list))
        .routes(routes!(orders::detail))
        .routes(routes!(orders::resend_email))
        .routes(routes!(photos::upload, photos::list))
        .routes(routes!(photos::moderate, photos::delete))
        .routes(routes!(orders::approve))
        .routes(routes!(orders::confirm))
        .routes(routes!(audit::list))
        .routes(routes!(settings::get, settings::put))
        .routes(routes!(settings::get_logo, settings::put_logo))
}
