//! What the benchmarks share: the application on a fresh data folder with the shop's
//! models (`./models`, or `RACESHOT__FACES__MODELS_DIR`), its limits per client lifted
//! as each benchmark needs, and an event on sale from yesterday for a month.

use std::path::PathBuf;

use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_server::app::startup::Application;
use raceshot_server::app::state::{AppState, Clock};
use raceshot_server::config::Config;
use raceshot_store::events::Event;

pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The models folder the benchmarks use.
pub fn models_dir() -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::var("RACESHOT__FACES__MODELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("models"))
}

/// The application on port 0 with its data in `data_dir`, the sandbox gateway allowed,
/// and the `extra` settings (`RACESHOT__…` names).
pub async fn application(
    data_dir: &std::path::Path,
    extra: &[(&str, &str)],
) -> Result<Application> {
    let mut env = vec![
        (
            "RACESHOT__SERVER__ADDR".to_owned(),
            "127.0.0.1:0".to_owned(),
        ),
        (
            "RACESHOT__DATA_DIR".to_owned(),
            data_dir.display().to_string(),
        ),
        (
            "RACESHOT__FACES__MODELS_DIR".to_owned(),
            models_dir().display().to_string(),
        ),
        ("RACESHOT__LOG__FILTER".to_owned(), "warn".to_owned()),
        (
            "RACESHOT__PAYMENTS__ALLOW_SANDBOX".to_owned(),
            "true".to_owned(),
        ),
    ];
    env.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    let config = Config::from_sources(None, env)?;
    Ok(Application::build(config, Clock::System, true).await?)
}

/// Event `key` on sale since yesterday, for a month, one package of one photo.
pub async fn event_on_sale(state: &AppState, key: &str, title: &str) -> Result<Event> {
    let today = chrono::Utc::now().date_naive();
    let event = EventInput {
        event_key: key.into(),
        title: title.into(),
        eventdate: today.to_string(),
        on_sale_start: (today - chrono::Days::new(1)).to_string(),
        on_sale_end: (today + chrono::Days::new(30)).to_string(),
        package: vec![PackageInput {
            name: "1".into(),
            name_en: "1".into(),
            number_of_photo: 1,
            price: 60.0,
        }],
        ..EventInput::default()
    }
    .validate()
    .map_err(|e| format!("{e:?}"))?;
    state.store.write_events(&[event], state.now()).await?;
    Ok(state
        .store
        .event_by_key(&raceshot_domain::EventKey::parse(key)?)
        .await?
        .ok_or("event missing")?)
}
