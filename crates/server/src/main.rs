//! `raceshot`: the shop's one binary. `serve` runs the HTTP API; the other subcommands are
//! the operator's tools around it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use raceshot_server::commands::{demo, import};
use raceshot_server::config::Config;
use raceshot_server::startup::{Application, shutdown_signal};
use raceshot_server::state::Clock;
use raceshot_server::{api, telemetry};
use raceshot_store::Store;
use raceshot_store::events::Written;

#[derive(Parser)]
#[command(
    name = "raceshot",
    version,
    about = "Event-photo shop: find your race photos by face"
)]
struct Cli {
    /// A TOML configuration file; RACESHOT__SECTION__KEY variables override it.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the shop's API.
    Serve,
    /// Apply pending database migrations.
    Migrate,
    /// Manage events.
    Event {
        #[command(subcommand)]
        command: EventCommand,
    },
    /// Create the demo event unless it exists.
    SeedDemo,
    /// Print the OpenAPI document of the API.
    Openapi,
}

#[derive(Subcommand)]
enum EventCommand {
    /// Create or update events from a JSON file (one event or an array; see docs/event-import.md).
    Import { file: PathBuf },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Openapi = cli.command {
        println!("{}", api::openapi_json());
        return ExitCode::SUCCESS;
    }
    let config = match Config::load(cli.config.as_deref()) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init(&config.log);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command, config)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<import::Refused>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

async fn run(command: Command, config: Config) -> anyhow::Result<ExitCode> {
    match command {
        Command::Serve => {
            let app = Application::build(config, Clock::System).await?;
            tracing::info!(addr = %app.local_addr()?, "serving");
            app.run_until(shutdown_signal()).await?;
        }
        Command::Migrate => {
            let store = Store::connect(&config.database_settings()).await?;
            store.migrate().await?;
            store.close().await;
            println!("migrations applied");
        }
        Command::Event {
            command: EventCommand::Import { file },
        } => {
            let store = migrated(&config).await?;
            let written = import::import_file(&store, &file, chrono::Utc::now()).await;
            store.close().await;
            for (key, w) in written? {
                match w {
                    Written::Created(id) => println!("created event {key} (id {id})"),
                    Written::Updated(id) => println!("updated event {key} (id {id})"),
                }
            }
        }
        Command::SeedDemo => {
            let store = migrated(&config).await?;
            let created = demo::seed(&store, chrono::Utc::now()).await;
            store.close().await;
            println!(
                "{}",
                if created? {
                    "demo event created"
                } else {
                    "demo event exists"
                }
            );
        }
        Command::Openapi => println!("{}", api::openapi_json()),
    }
    Ok(ExitCode::SUCCESS)
}

async fn migrated(config: &Config) -> anyhow::Result<Store> {
    let store = Store::connect(&config.database_settings()).await?;
    if config.database.auto_migrate {
        store.migrate().await?;
    }
    Ok(store)
}
