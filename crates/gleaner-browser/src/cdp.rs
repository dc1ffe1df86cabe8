//! One headless Chromium process and a blocking DevTools-protocol client
//! for its one page.
//!
//! Protocol: <https://chromedevtools.github.io/devtools-protocol/>. The
//! browser is started with `--remote-debugging-port=0`, writes the port it
//! chose to `DevToolsActivePort` in its profile directory, and speaks JSON
//! messages over a WebSocket: commands `{id, method, params, sessionId}`,
//! answers `{id, result | error}`, events `{method, params, sessionId}`.
//! A page target is created and attached in flat mode, so its commands
//! carry the target's `sessionId` on the same socket.

use std::collections::HashMap;
use std::fs;
use std::io::ErrorKind;
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

use crate::snapshot::COMPUTED_STYLES;
use crate::Resource;

/// How a call to the browser failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The page's time ran out; the browser may be stuck in it.
    Timeout(String),
    /// The browser is gone or speaks nonsense: start another.
    Dead(String),
    /// The browser is fine but refused this page.
    Page(String),
}

/// What a browser needs to know to start and lay pages out.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub binary: std::path::PathBuf,
    pub viewport: (u32, u32),
    pub scripts: bool,
    pub start_timeout: Duration,
    pub resources: Arc<HashMap<String, Resource>>,
}

/// The page being loaded: what answers its requests.
struct Load {
    /// The serialized document, base64.
    body: String,
    /// The document request has been answered.
    served: bool,
    /// `Page.loadEventFired` arrived.
    loaded: bool,
}

/// A running Chromium with one attached page.
pub(crate) struct Chromium {
    child: Child,
    socket: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    load: Option<Load>,
    resources: Arc<HashMap<String, Resource>>,
    // Declared last: removed after the browser has exited (`Drop`).
    profile: Option<tempfile::TempDir>,
}

/// A transparent 1×1 GIF, base64.
const BLANK_GIF: &str = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

/// Chromium's switches for an offline, quiet, disposable browser.
///
/// Requests never reach the network: the Fetch domain answers or fails
/// every request, and as a second fence every connection goes through a
/// proxy on the discard port of the loopback, which refuses it
/// (`<-loopback>` removes the implicit bypass of local addresses).
/// WebSockets and WebRTC, which the Fetch domain does not see, go through
/// that proxy or nowhere.
const SWITCHES: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
    "--disable-features=BackForwardCache,Translate,MediaRouter,OptimizationHints",
    "--hide-scrollbars",
    "--mute-audio",
    "--password-store=basic",
    "--use-mock-keychain",
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--remote-debugging-port=0",
];

impl Chromium {
    /// Starts a browser and opens its page.
    pub(crate) fn launch(settings: &Settings) -> Result<Chromium, Failure> {
        let profile = tempfile::Builder::new()
            .prefix("gleaner-chromium-")
            .tempdir()
            .map_err(|e| Failure::Dead(format!("cannot create a browser profile folder: {e}")))?;
        let (width, height) = settings.viewport;
        let child = Command::new(&settings.binary)
            .args(SWITCHES)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--window-size={width},{height}"))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                Failure::Dead(format!("cannot start {}: {e}", settings.binary.display()))
            })?;
        let mut started = Started { child: Some(child) };
        let deadline = Instant::now() + settings.start_timeout;
        let endpoint = started.endpoint(profile.path(), deadline)?;
        let stream = TcpStream::connect(("127.0.0.1", endpoint.0))
            .map_err(|e| Failure::Dead(format!("cannot reach the browser: {e}")))?;
        let _ = stream.set_nodelay(true);
        let _ = stream.set_read_timeout(Some(settings.start_timeout));
        let _ = stream.set_write_timeout(Some(settings.start_timeout));
        let url = format!("ws://127.0.0.1:{}{}", endpoint.0, endpoint.1);
        // Snapshots of large pages are tens of megabytes.
        let config = WebSocketConfig::default()
            .max_message_size(Some(1 << 30))
            .max_frame_size(Some(1 << 30));
        let (socket, _) =
            tungstenite::client::client_with_config(url.as_str(), stream, Some(config))
                .map_err(|e| Failure::Dead(format!("DevTools handshake failed: {e}")))?;
        let Some(child) = started.child.take() else {
            return Err(Failure::Dead("the browser process was lost".into()));
        };
        let mut chromium = Chromium {
            child,
            socket,
            session: String::new(),
            next_id: 0,
            load: None,
            resources: Arc::clone(&settings.resources),
            profile: Some(profile),
        };
        chromium.open_page(settings, deadline)?;
        Ok(chromium)
    }

    /// Creates the page target, attaches to it and sets it up: viewport,
    /// scripts, and every request paused for [`Chromium::on_event`].
    fn open_page(&mut self, settings: &Settings, deadline: Instant) -> Result<(), Failure> {
        let target =
            self.call(None, "Target.createTarget", json!({"url": "about:blank"}), deadline)?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_owned();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            deadline,
        )?;
        let Some(session) = attached["sessionId"].as_str() else {
            return Err(Failure::Dead("attaching to the page gave no session".into()));
        };
        self.session = session.to_owned();
        let s = Some(());
        let (width, height) = settings.viewport;
        self.call(s, "Page.enable", json!({}), deadline)?;
        self.call(
            s,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            deadline,
        )?;
        self.call(
            s,
            "Emulation.setScriptExecutionDisabled",
            json!({"value": !settings.scripts}),
            deadline,
        )?;
        self.call(s, "Fetch.enable", json!({"patterns": [{"urlPattern": "*"}]}), deadline)?;
        Ok(())
    }

    /// Loads `html` as the document at `url` (answering the document
    /// request from memory), waits for the load event and returns
    /// `DOMSnapshot.captureSnapshot`'s answer.
    pub(crate) fn snapshot(
        &mut self,
        html: &str,
        url: &str,
        deadline: Instant,
    ) -> Result<Value, Failure> {
        let body = data_encoding::BASE64.encode(html.as_bytes());
        self.load = Some(Load { body, served: false, loaded: false });
        let s = Some(());
        let navigated = self.call(s, "Page.navigate", json!({"url": url}), deadline)?;
        if let Some(error) = navigated["errorText"].as_str() {
            self.load = None;
            return Err(Failure::Page(format!("loading the page failed: {error}")));
        }
        while !self.load.as_ref().is_some_and(|l| l.loaded) {
            let message = self.read(deadline)?;
            self.dispatch(message)?;
        }
        self.load = None;
        self.call(
            s,
            "DOMSnapshot.captureSnapshot",
            json!({"computedStyles": COMPUTED_STYLES}),
            deadline,
        )
    }

    /// Sends a command (to the page's session when `session` is `Some`)
    /// and reads messages, handling events, until its answer arrives.
    fn call(
        &mut self,
        session: Option<()>,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, Failure> {
        let id = self.send(session, method, params)?;
        loop {
            let message = self.read(deadline)?;
            if message["id"].as_u64() == Some(id) {
                if let Some(error) = message.get("error") {
                    let text = error["message"].as_str().unwrap_or("unknown error");
                    return Err(Failure::Page(format!("{method}: {text}")));
                }
                return Ok(message.get("result").cloned().unwrap_or(Value::Null));
            }
            self.dispatch(message)?;
        }
    }

    /// Sends a command without waiting for its answer; returns its id.
    fn send(&mut self, session: Option<()>, method: &str, params: Value) -> Result<u64, Failure> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if session.is_some() {
            message["sessionId"] = Value::String(self.session.clone());
        }
        self.socket
            .send(Message::text(message.to_string()))
            .map_err(|e| Failure::Dead(format!("the browser connection broke: {e}")))?;
        Ok(id)
    }

    /// The next message, waiting at most until `deadline`.
    fn read(&mut self, deadline: Instant) -> Result<Value, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure::Timeout("the page took too long".into()));
            }
            let _ = self.socket.get_mut().set_read_timeout(Some(left));
            let parsed = match self.socket.read() {
                Ok(Message::Text(text)) => serde_json::from_str(text.as_str()),
                Ok(Message::Binary(bytes)) => serde_json::from_slice(&bytes),
                Ok(Message::Close(_)) => {
                    return Err(Failure::Dead("the browser closed the connection".into()))
                }
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    continue
                }
                Err(e) => return Err(Failure::Dead(format!("the browser connection broke: {e}"))),
            };
            return parsed.map_err(|e| Failure::Dead(format!("bad DevTools message: {e}")));
        }
    }

    /// Handles an event: answers paused requests, notes the load event,
    /// notices a crashed or closed page.
    fn dispatch(&mut self, message: Value) -> Result<(), Failure> {
        let params = &message["params"];
        match message["method"].as_str() {
            Some("Fetch.requestPaused") => self.answer_request(params),
            Some("Page.loadEventFired") => {
                if let Some(load) = &mut self.load {
                    load.loaded = true;
                }
                Ok(())
            }
            Some("Inspector.targetCrashed" | "Target.targetCrashed") => {
                Err(Failure::Dead("the page crashed".into()))
            }
            Some("Target.detachedFromTarget" | "Inspector.detached") => {
                Err(Failure::Dead("the browser let go of the page".into()))
            }
            _ => Ok(()),
        }
    }

    /// Answers a paused request: the page's own document from memory (the
    /// first document request of a load), a resource the caller supplied,
    /// `204 No Content` for any other document (a navigation away or a
    /// frame: the spec's "204 aborts navigation", so no error page replaces
    /// ours), a transparent 1×1 image for images (a failed image is drawn
    /// as its alt text, ignoring its `width` and `height`; a loaded one
    /// takes the size the page gives it), and a failure for everything
    /// else.
    fn answer_request(&mut self, params: &Value) -> Result<(), Failure> {
        let Some(request_id) = params["requestId"].as_str().map(str::to_owned) else {
            return Ok(());
        };
        let is_document = params["resourceType"].as_str() == Some("Document");
        let url = params["request"]["url"].as_str().unwrap_or_default();
        let s = Some(());
        if is_document {
            if let Some(load) = self.load.as_mut().filter(|l| !l.served) {
                load.served = true;
                let body = std::mem::take(&mut load.body);
                let headers = [("Content-Type", "text/html; charset=utf-8")];
                return self.fulfill(&request_id, 200, &headers, body);
            }
            return self.fulfill(&request_id, 204, &[], String::new());
        }
        if let Some(resource) = self.resources.get(url).cloned() {
            let headers = [("Content-Type", resource.content_type.as_str())];
            let body = data_encoding::BASE64.encode(&resource.body);
            return self.fulfill(&request_id, 200, &headers, body);
        }
        if params["resourceType"].as_str() == Some("Image") {
            let headers = [("Content-Type", "image/gif")];
            return self.fulfill(&request_id, 200, &headers, BLANK_GIF.to_owned());
        }
        self.send(
            s,
            "Fetch.failRequest",
            json!({"requestId": request_id, "errorReason": "BlockedByClient"}),
        )
        .map(drop)
    }

    fn fulfill(
        &mut self,
        request_id: &str,
        status: u16,
        headers: &[(&str, &str)],
        body: String,
    ) -> Result<(), Failure> {
        let headers: Vec<Value> =
            headers.iter().map(|(name, value)| json!({"name": name, "value": value})).collect();
        let params = json!({
            "requestId": request_id,
            "responseCode": status,
            "responseHeaders": headers,
            "body": body,
        });
        self.send(Some(()), "Fetch.fulfillRequest", params).map(drop)
    }

    /// The browser's operating-system process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Chromium {
    /// Asks the browser to close (it then ends its own helper processes),
    /// waits a little, kills it if it is still there, reaps it, and only
    /// then removes the profile folder.
    fn drop(&mut self) {
        let helpers = descendants(self.child.id());
        let _ = self.send(None, "Browser.close", json!({}));
        stop(&mut self.child, Duration::from_secs(5));
        // The helpers (zygote, renderer, network service) leave on their
        // own once the browser is gone; wait for them, so that no process
        // outlives the provider, and kill the ones that stay.
        let deadline = Instant::now() + Duration::from_secs(3);
        let alive = || helpers.iter().filter(|pid| Path::new(&format!("/proc/{pid}")).exists());
        while alive().next().is_some() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        let stayed: Vec<String> = alive().map(u32::to_string).collect();
        if !stayed.is_empty() {
            let _ = Command::new("kill").arg("-KILL").args(&stayed).status();
        }
        if let Some(profile) = self.profile.take() {
            let _ = profile.close();
        }
    }
}

/// The processes below `pid`, from `/proc` (none where there is no
/// `/proc`).
fn descendants(pid: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    // (pid, parent pid) of every process; `stat` is `pid (name) state ppid`,
    // and the name may hold spaces and parentheses.
    let parents: Vec<(u32, u32)> = entries
        .filter_map(|e| {
            let child = e.ok()?.file_name().to_str()?.parse::<u32>().ok()?;
            let stat = fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            let (_, after_name) = stat.rsplit_once(')')?;
            let parent = after_name.split_whitespace().nth(1)?.parse::<u32>().ok()?;
            Some((child, parent))
        })
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while let Some(&p) = found.get(i) {
        found.extend(parents.iter().filter(|&&(_, parent)| parent == p).map(|&(c, _)| c));
        i += 1;
    }
    found.retain(|&p| p != pid);
    found
}

/// Waits up to `grace` for `child` to exit, then kills it; always reaps.
fn stop(child: &mut Child, grace: Duration) {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => return,
            Ok(None) => thread::sleep(Duration::from_millis(20)),
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A browser process between spawn and a working connection: killed and
/// reaped if starting fails.
struct Started {
    child: Option<Child>,
}

impl Started {
    /// The DevTools port and browser path from `DevToolsActivePort`.
    fn endpoint(&mut self, profile: &Path, deadline: Instant) -> Result<(u16, String), Failure> {
        let file = profile.join("DevToolsActivePort");
        loop {
            if let Ok(text) = fs::read_to_string(&file) {
                let mut lines = text.lines();
                let port = lines.next().and_then(|p| p.trim().parse::<u16>().ok());
                let path = lines.next().map(str::trim).filter(|p| p.starts_with('/'));
                if let (Some(port), Some(path)) = (port, path) {
                    return Ok((port, path.to_owned()));
                }
            }
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(Failure::Dead(format!("the browser exited at start ({status})")));
                }
            }
            if Instant::now() >= deadline {
                return Err(Failure::Timeout("the browser did not start in time".into()));
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            stop(&mut child, Duration::ZERO);
        }
    }
}
