//! `raceshot`: the shop's one binary. `serve` runs the HTTP API; the other subcommands are
//! the operator's tools around it. Each subcommand is one function below; the work is in
//! `raceshot_server::commands` and the services.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use raceshot_server::app::startup::{Application, load_state, shutdown_signal};
use raceshot_server::app::state::{AppState, Clock};
use raceshot_server::commands::{
    admin, bibs, demo, faces, import, ingest, orders, results, upload,
};
use raceshot_server::config::Config;
use raceshot_server::infra::telemetry;
use raceshot_server::services::operators::{cli_actor, normalise_email};
use raceshot_server::services::selfies;
use raceshot_server::{api, app, jobs};
use raceshot_store::Store;
use raceshot_store::events::Written;
use raceshot_store::operators::Role;

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
    #[command(flatten)]
    Configured(Configured),
    /// Print the OpenAPI document of the API.
    Openapi,
    /// Print the table of every setting (the README's configuration table).
    Settings,
    /// Send photos to an event of a shop over resumable uploads (a photographer's
    /// uploader; needs no configuration).
    Upload(UploadArgs),
}

#[derive(Args)]
struct UploadArgs {
    /// The shop's address, e.g. https://photos.example.com
    #[arg(long)]
    server: String,
    /// The event's key.
    #[arg(long)]
    event: String,
    /// An upload token (the console's "Upload tokens" page or `raceshot admin upload-token`).
    #[arg(long, env = "RACESHOT_UPLOAD_TOKEN", hide_env_values = true)]
    token: String,
    /// Keep sending new files as they appear under the paths, until interrupted.
    #[arg(long)]
    watch: bool,
    /// Where files half sent are remembered [default: .raceshot-upload-EVENT.json].
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Files, or folders searched for JPEG and PNG files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// The subcommands that read the configuration.
#[derive(Subcommand)]
enum Configured {
    /// Serve the shop's API (and run background jobs unless --no-jobs).
    Serve {
        /// Leave jobs to `raceshot worker` processes.
        #[arg(long)]
        no_jobs: bool,
    },
    /// Run background jobs (photo processing) without serving HTTP.
    Worker,
    /// Add photos (files or directories of JPEG/PNG) to an event.
    Ingest(IngestArgs),
    /// Read the bib numbers of an event's photos again (after changing its bib rule).
    Bibs {
        /// The event's key.
        #[arg(long)]
        event: String,
        /// Read them here too, and return when done.
        #[arg(long)]
        wait: bool,
    },
    /// Apply pending database migrations.
    Migrate,
    /// Manage events.
    Event {
        #[command(subcommand)]
        command: EventCommand,
    },
    /// An event's race results.
    Results {
        #[command(subcommand)]
        command: ResultsCommand,
    },
    /// Confirm or approve orders by hand.
    Order {
        #[command(subcommand)]
        command: OrderCommand,
    },
    /// Manage operator accounts of the console.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Create the demo event and its photos unless they exist.
    SeedDemo,
    /// The face models in use.
    Faces {
        #[command(subcommand)]
        command: FacesCommand,
    },
}

#[derive(Subcommand)]
enum FacesCommand {
    /// Print the model pair in use (`faces.model_pair`) and its licence.
    Licence,
    /// Move an event to the model pair in use: its photos analysed again (here and by
    /// any worker), its searches unchanged until every photo is done. Run again after an
    /// interruption.
    Reindex {
        /// The event's key.
        #[arg(long)]
        event: String,
    },
}

#[derive(Args)]
struct IngestArgs {
    /// The event's key.
    #[arg(long)]
    event: String,
    /// Process the batch here too, and return when it is done.
    #[arg(long)]
    wait: bool,
    /// The photographer's number, by which the manual search page filters (0: none).
    #[arg(long, default_value_t = 0)]
    photographer: i64,
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum EventCommand {
    /// Create or update events from a JSON file (one event or an array; see docs/event-import.md).
    Import { file: PathBuf },
}

#[derive(Subcommand)]
enum ResultsCommand {
    /// Import an event's results from a CSV file as timing systems export it, replacing
    /// the results imported before (see docs/event-import.md).
    Import {
        /// The event's key.
        #[arg(long)]
        event: String,
        /// Which column holds a field, as FIELD=HEADER (repeatable; fields: bib, name,
        /// gender, category, distance, gun_time, chip_time, rank). Unset: the event's last
        /// map, else the headers' usual names.
        #[arg(long = "column")]
        columns: Vec<String>,
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an operator account; the password is read from standard input.
    CreateUser(CreateUserArgs),
    /// Make an upload token for an account (for a camera's FTP or `raceshot upload`);
    /// the token is printed once, on the last line.
    UploadToken(UploadTokenArgs),
}

#[derive(Args)]
struct UploadTokenArgs {
    #[arg(long)]
    email: String,
    /// What the token is for, as the console lists it (a camera, a laptop).
    #[arg(long, default_value = "uploader")]
    label: String,
}

#[derive(Args)]
struct CreateUserArgs {
    #[arg(long)]
    email: String,
    /// `admin` (everything) or `photographer` (uploads on the given events only).
    #[arg(long, value_parser = ["admin", "photographer"])]
    role: String,
    /// An event a photographer may work on (repeatable).
    #[arg(long = "event")]
    events: Vec<String>,
}

#[derive(Subcommand)]
enum OrderCommand {
    /// Mark a PROMPTPAY order paid after checking its bank slip.
    Confirm {
        uuid: String,
        /// The slip's transaction reference; its last 4 characters become the receipt.
        #[arg(long)]
        slip_ref: String,
    },
    /// Approve an all-photos (AM) order.
    Approve { uuid: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = match cli.command {
        Command::Openapi => {
            println!("{}", api::openapi_json());
            return ExitCode::SUCCESS;
        }
        Command::Settings => {
            print!("{}", raceshot_server::config::markdown_table());
            return ExitCode::SUCCESS;
        }
        Command::Upload(args) => return upload(args),
        Command::Configured(command) => command,
    };
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
    match runtime.block_on(run(command, config)) {
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

/// The photographer's uploader: a client of a shop, so it reads no configuration.
fn upload(args: UploadArgs) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let settings = upload::UploadSettings {
        state_file: args
            .state
            .unwrap_or_else(|| PathBuf::from(format!(".raceshot-upload-{}.json", args.event))),
        server: args.server,
        event: args.event,
        token: args.token,
        first_pause: std::time::Duration::from_secs(1),
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match runtime.block_on(upload::upload(settings, &args.paths, args.watch, stop)) {
        Ok(report) => {
            println!(
                "{} sent, {} already in the event, {} failed",
                report.sent.len(),
                report.skipped,
                report.failed.len()
            );
            for (path, why) in &report.failed {
                eprintln!("not sent: {}: {why}", path.display());
            }
            if report.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Configured, config: Config) -> anyhow::Result<ExitCode> {
    match command {
        Configured::Serve { no_jobs } => serve(config, no_jobs).await,
        Configured::Worker => worker(config).await,
        Configured::Ingest(args) => ingest(config, args).await,
        Configured::Bibs { event, wait } => read_bibs(config, &event, wait).await,
        Configured::Migrate => migrate(&config).await,
        Configured::Event {
            command: EventCommand::Import { file },
        } => import_events(&config, &file).await,
        Configured::Results {
            command:
                ResultsCommand::Import {
                    event,
                    columns,
                    file,
                },
        } => import_results(&config, &event, &columns, &file).await,
        Configured::Order { command } => order(config, command).await,
        Configured::Admin {
            command: AdminCommand::CreateUser(args),
        } => create_user(&config, args).await,
        Configured::Admin {
            command: AdminCommand::UploadToken(args),
        } => upload_token(&config, args).await,
        Configured::SeedDemo => seed_demo(config).await,
        Configured::Faces {
            command: FacesCommand::Reindex { event },
        } => reindex_faces(config, &event).await,
        Configured::Faces {
            command: FacesCommand::Licence,
        } => {
            let pair = config.faces.model_pair;
            println!("face models: {pair}: {}", pair.licence());
            if !pair.commercial() {
                println!(
                    "  {} (RACESHOT__FACES__MODEL_PAIR)",
                    raceshot_vision::ModelPair::NOT_FOR_SALE
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

async fn serve(config: Config, no_jobs: bool) -> anyhow::Result<ExitCode> {
    let app = Application::build(config, Clock::System, !no_jobs).await?;
    tracing::info!(addr = %app.local_addr()?, jobs = !no_jobs, "serving");
    app.run_until(shutdown_signal()).await?;
    Ok(ExitCode::SUCCESS)
}

async fn worker(config: Config) -> anyhow::Result<ExitCode> {
    let state = cli_state(config).await?;
    let (stop, stop_rx) = tokio::sync::watch::channel(false);
    let sweep = tokio::spawn(selfies::sweep_until(
        state.store.clone(),
        state.objects.clone(),
        state.config.search.selfie_ttl,
        stop_rx.clone(),
    ));
    let workers = tokio::spawn(jobs::run_workers(state.clone(), stop_rx));
    let fresh = tokio::spawn(app::startup::keep_settings_fresh(state.clone()));
    tracing::info!(workers = state.config.jobs.workers, "working");
    shutdown_signal().await;
    let _ = stop.send(true);
    let _ = workers.await;
    let _ = sweep.await;
    fresh.abort();
    state.store.close().await;
    Ok(ExitCode::SUCCESS)
}

async fn ingest(config: Config, args: IngestArgs) -> anyhow::Result<ExitCode> {
    let IngestArgs {
        event,
        wait,
        photographer,
        paths,
    } = args;
    let state = cli_state(config).await?;
    let files = ingest::collect_files(&paths)?;
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let report = ingest::ingest(&state, &event, photographer, &files, wait, tty).await;
    state.store.close().await;
    let report = report?;
    println!(
        "{} files: {} queued, {} already in the event, {} refused",
        files.len(),
        report.queued.len(),
        report.skipped,
        report.refused.len()
    );
    for (path, reason) in &report.refused {
        println!("  refused {path}: {reason}");
    }
    if wait {
        println!(
            "processed: {} ready, {} failed",
            report.ready,
            report.failed.len()
        );
        for (name, reason) in &report.failed {
            println!("  failed {name}: {reason}");
        }
    }
    if !report.refused.is_empty() || !report.failed.is_empty() {
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}

async fn read_bibs(config: Config, event: &str, wait: bool) -> anyhow::Result<ExitCode> {
    let state = cli_state(config).await?;
    let report = bibs::reread(&state, event, wait).await;
    state.store.close().await;
    let report = report?;
    println!("{} photos queued for reading", report.queued);
    if wait {
        println!(
            "read: {} bibs on {} photos",
            report.bibs, report.photos_with_bibs
        );
    }
    Ok(ExitCode::SUCCESS)
}

async fn reindex_faces(config: Config, event: &str) -> anyhow::Result<ExitCode> {
    let state = cli_state(config).await?;
    let report = faces::reindex(&state, event, |done, total| {
        eprintln!("{event}: {done} of {total} photos analysed by the new pair");
    })
    .await;
    state.store.close().await;
    match report? {
        faces::Report::AlreadyOn(pair) => println!("{event} uses {pair} already"),
        faces::Report::Moved {
            pair,
            queued,
            carried,
            old_faces,
        } => println!(
            "{event} moved to {pair}: {queued} photos analysed again, {carried} privacy and \
             alert templates carried over, {old_faces} faces of the old pair deleted"
        ),
    }
    Ok(ExitCode::SUCCESS)
}

async fn migrate(config: &Config) -> anyhow::Result<ExitCode> {
    let store = Store::connect(&config.database_settings()).await?;
    store.migrate().await?;
    store.close().await;
    println!("migrations applied");
    Ok(ExitCode::SUCCESS)
}

async fn import_events(config: &Config, file: &std::path::Path) -> anyhow::Result<ExitCode> {
    let store = migrated(config).await?;
    let written = import::import_file(&store, file, chrono::Utc::now()).await;
    store.close().await;
    for (key, w) in written? {
        match w {
            Written::Created(id) => println!("created event {key} (id {id})"),
            Written::Updated(id) => println!("updated event {key} (id {id})"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn import_results(
    config: &Config,
    event: &str,
    columns: &[String],
    file: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    let columns = results::parse_columns(columns)?;
    let store = migrated(config).await?;
    let report = results::import_file(
        &store,
        event,
        file,
        columns,
        &cli_actor(),
        chrono::Utc::now(),
    )
    .await;
    store.close().await;
    match report? {
        results::Report::Imported(rows) => {
            println!("{event}: {rows} results imported");
            Ok(ExitCode::SUCCESS)
        }
        results::Report::Refused(problems) => {
            println!(
                "{event}: nothing imported; {} rows cannot be:",
                problems.len()
            );
            for p in &problems {
                println!("  line {}: {}", p.line, p.reason);
            }
            Ok(ExitCode::from(3))
        }
    }
}

async fn order(config: Config, command: OrderCommand) -> anyhow::Result<ExitCode> {
    let state = cli_state(config).await?;
    let actor = cli_actor();
    let outcome = match &command {
        OrderCommand::Confirm { uuid, slip_ref } => {
            orders::confirm(&state, uuid, slip_ref, &actor).await
        }
        OrderCommand::Approve { uuid } => orders::approve(&state, uuid, &actor).await,
    };
    state.store.close().await;
    match outcome? {
        orders::Outcome::Paid => println!("order marked paid; delivery started"),
        orders::Outcome::AlreadyPaid => println!("order was paid already; nothing changed"),
    }
    Ok(ExitCode::SUCCESS)
}

async fn create_user(config: &Config, args: CreateUserArgs) -> anyhow::Result<ExitCode> {
    let CreateUserArgs {
        email,
        role,
        events,
    } = args;
    let role = Role::parse(&role).context("role must be admin or photographer")?;
    let mut password = String::new();
    std::io::stdin()
        .read_line(&mut password)
        .context("reading the password from standard input")?;
    let password = password.trim_end_matches(['\r', '\n']);
    let store = migrated(config).await?;
    let created =
        admin::create_user(&store, &email, role, password, &events, chrono::Utc::now()).await;
    store.close().await;
    let id = created?;
    println!(
        "created {} account {} (id {id})",
        role.as_str(),
        normalise_email(&email)
    );
    Ok(ExitCode::SUCCESS)
}

async fn upload_token(config: &Config, args: UploadTokenArgs) -> anyhow::Result<ExitCode> {
    let store = migrated(config).await?;
    let issued = admin::upload_token(&store, &args.email, &args.label, chrono::Utc::now()).await;
    store.close().await;
    let issued = issued?;
    println!(
        "upload token {} ({}) for {}; it is shown only now:",
        issued.token.id, issued.token.label, issued.token.operator_email
    );
    println!("{}", issued.secret);
    Ok(ExitCode::SUCCESS)
}

async fn seed_demo(config: Config) -> anyhow::Result<ExitCode> {
    let photos = config.faces.models_dir.join("photos");
    let state = cli_state(config).await?;
    let seeded = demo::seed(&state, &photos).await;
    state.store.close().await;
    let seeded = seeded?;
    let event = if seeded.event_created {
        "demo event created"
    } else {
        "demo event exists"
    };
    println!("{event}; {} photos added", seeded.photos);
    Ok(ExitCode::SUCCESS)
}

/// Everything a command that processes photos needs, without binding a port; links it
/// writes point at the configured server address.
async fn cli_state(config: Config) -> anyhow::Result<AppState> {
    let fallback = format!("http://{}", config.server.addr);
    load_state(config, Clock::System, fallback).await
}

async fn migrated(config: &Config) -> anyhow::Result<Store> {
    let store = Store::connect(&config.database_settings()).await?;
    if config.database.auto_migrate {
        store.migrate().await?;
    }
    Ok(store)
}
