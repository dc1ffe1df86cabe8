//! The accept loop: HTTP/1.1 connections with a header read timeout,
//! every request tagged with its client's address, and a graceful
//! shutdown that stops accepting and lets requests under way finish
//! (within the grace period).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::guard::ClientAddr;
use crate::{Config, State};

/// A server ready to run: its listener and its state.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    /// A server on `listener` with `config`.
    ///
    /// # Errors
    /// The fetcher's HTTP client cannot be set up.
    pub fn new(listener: TcpListener, config: Config) -> std::io::Result<Server> {
        let state = State::new(config).map_err(std::io::Error::other)?;
        Ok(Server { listener, state })
    }

    /// The address it listens on.
    ///
    /// # Errors
    /// The socket's.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The shared state (for the metrics, in tests).
    pub fn state(&self) -> Arc<State> {
        Arc::clone(&self.state)
    }

    /// Serves until `shutdown` completes, then stops accepting and waits
    /// for the requests under way, at most the grace period.
    ///
    /// # Errors
    /// Never for a failed connection (it is logged); only when the
    /// listener itself fails.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> std::io::Result<()> {
        let Server { listener, state } = self;
        let (router, _) = crate::routes::router(Arc::clone(&state));
        let graceful = GracefulShutdown::new();
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(state.config.read_timeout);
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        // Out of file descriptors and the like: wait, go on.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let service = router.clone().map_request(move |mut request: Request<_>| {
                request.extensions_mut().insert(ClientAddr(peer));
                request
            });
            let service = hyper_util::service::TowerToHyperService::new(service);
            let connection = http.serve_connection(TokioIo::new(stream), service);
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::debug!(client = %peer, error = %e, "connection ended with an error");
                }
            });
        }
        drop(listener);
        tracing::info!("shutting down: waiting for requests under way");
        let grace = state.config.shutdown_grace;
        if tokio::time::timeout(grace, graceful.shutdown()).await.is_err() {
            tracing::warn!("requests still under way after {} s: closing", grace.as_secs());
        }
        Ok(())
    }
}

/// Binds `addr` and serves until ctrl-c or SIGTERM.
///
/// # Errors
/// The address cannot be bound, or the server cannot start.
pub async fn serve(addr: SocketAddr, config: Config) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let server = Server::new(listener, config)?;
    tracing::info!(address = %server.local_addr()?, "gleaner serve listening");
    server.run(shutdown_signal()).await
}

/// Completes on ctrl-c or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
