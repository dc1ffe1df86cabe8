//! `gleaner serve` and `gleaner mcp`: the flags into a
//! [`gleaner_server::Config`], a tokio runtime, and the server.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use crate::flags::{McpArgs, ServeArgs, ServeFetchArgs};
use crate::UsageError;

/// The settings both servers share.
fn config(fetch: &ServeFetchArgs) -> Result<gleaner_server::Config, UsageError> {
    crate::max_bytes(fetch.max_page_bytes)?;
    if fetch.time_budget_ms == 0 {
        return Err(UsageError("--time-budget-ms must be at least 1".into()));
    }
    if !fetch.allow_fetch
        && (!fetch.allow_host.is_empty()
            || fetch.allow_private_addresses
            || !fetch.allow_private_origin.is_empty()
            || fetch.ignore_robots)
    {
        return Err(UsageError(
            "--allow-host, --allow-private-addresses, --allow-private-origin and --ignore-robots \
             need --allow-fetch"
                .into(),
        ));
    }
    let mut config = gleaner_server::Config::default();
    config.allow_fetch = fetch.allow_fetch;
    config.allow_hosts = fetch.allow_host.clone();
    config.allow_private_addresses = fetch.allow_private_addresses;
    for origin in &fetch.allow_private_origin {
        match gleaner_crawl::Url::parse(origin) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => {
                config.allow_private_origins.push(url);
            }
            _ => {
                return Err(UsageError(format!(
                    "--allow-private-origin {origin}: not an http(s) URL with a host"
                )))
            }
        }
    }
    config.obey_robots = !fetch.ignore_robots;
    config.user_agent = fetch.user_agent.clone();
    config.fetch_timeout = Duration::from_secs(fetch.fetch_timeout_secs.max(1));
    config.fetch_delay = Duration::from_millis(fetch.fetch_delay_ms);
    config.max_page_bytes = fetch.max_page_bytes;
    config.time_budget = Duration::from_millis(fetch.time_budget_ms);
    config.template_dir = fetch.template_dir.clone();
    Ok(config)
}

/// A runtime with one worker per core.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}

/// Runs `serve`.
pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = args
        .bind
        .parse()
        .map_err(|e| UsageError(format!("--bind {}: {e} (give ADDRESS:PORT)", args.bind)))?;
    let mut config = config(&args.fetch)?;
    let token = args.token.clone().or_else(|| std::env::var("GLEANER_TOKEN").ok());
    if token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(UsageError("--token (or GLEANER_TOKEN) is empty".into()).into());
    }
    if args.max_body_bytes == 0 || args.max_concurrency == Some(0) {
        return Err(
            UsageError("--max-body-bytes and --max-concurrency must be at least 1".into()).into()
        );
    }
    if args.rate_limit.is_some_and(|r| !(r > 0.0 && r.is_finite())) {
        return Err(UsageError("--rate-limit must be a positive number".into()).into());
    }
    config.token = token;
    config.max_body_bytes = args.max_body_bytes;
    if let Some(n) = args.max_concurrency {
        config.max_concurrency = n;
    }
    if let Some(n) = args.extract_threads {
        config.extract_threads = n.max(1);
        config.batch_parallelism = n.max(1);
    }
    config.rate_limit = args.rate_limit;
    config.rate_burst = args.rate_burst;
    config.read_timeout = Duration::from_secs(args.read_timeout_secs.max(1));
    config.request_timeout = Duration::from_secs(args.request_timeout_secs.max(1));
    config.shutdown_grace = Duration::from_secs(args.shutdown_grace_secs);
    config.template_capacity = args.template_capacity.max(1);
    let filter = tracing_subscriber::EnvFilter::try_from_env("GLEANER_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if args.log_json {
        logs.json().init();
    } else {
        logs.init();
    }
    let runtime = runtime()?;
    runtime.block_on(gleaner_server::serve(addr, config))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `mcp`.
pub fn mcp(args: McpArgs) -> anyhow::Result<ExitCode> {
    let config = config(&args.fetch)?;
    runtime()?.block_on(gleaner_server::mcp::serve_stdio(config))?;
    Ok(ExitCode::SUCCESS)
}
