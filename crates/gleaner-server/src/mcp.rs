//! `gleaner mcp`: the same extraction as a Model Context Protocol server
//! over stdio (the `rmcp` SDK), for agent frameworks. Tools: `extract`
//! (a page's HTML or URL → Markdown and metadata), `extract_batch`, and
//! `site_template` (learn a site's template; give its id to `extract`).
//! URLs are fetched only when the server was started to (`--allow-fetch`),
//! with the same address policy as `gleaner serve`.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler, ServiceExt};
use serde::Deserialize;

use crate::extract::{ExtractRequest, Format, Scope};
use crate::routes::TemplateRequest;
use crate::{Config, State};

/// Several pages for `extract_batch`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
pub struct BatchArgs {
    /// The pages, each as for `extract`.
    pub pages: Vec<ExtractRequest>,
}

/// `request` with Markdown among its formats: the tools answer with it.
fn with_markdown(mut request: ExtractRequest) -> ExtractRequest {
    let formats = request.formats.get_or_insert_with(|| vec![Format::Text]);
    if !formats.contains(&Format::Markdown) {
        formats.push(Format::Markdown);
    }
    request
}

/// The MCP server.
#[derive(Debug, Clone)]
pub struct Mcp {
    state: Arc<State>,
    #[allow(dead_code, reason = "read by the code #[tool_handler] generates")]
    tool_router: ToolRouter<Mcp>,
}

/// The metadata the tools return beside the Markdown.
fn metadata(record: &gleaner_batch::Record) -> serde_json::Value {
    serde_json::json!({
        "source": record.source,
        "title": record.title,
        "url": record.url,
        "author": record.author,
        "date": record.date,
        "site_name": record.site_name,
        "language": record.language,
        "description": record.description,
        "page_type": record.page_type,
        "is_article": record.is_article,
        "error": record.error,
    })
}

/// A tool failure as the tool's result (the model reads it), not a
/// protocol error.
fn failed(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

#[tool_router]
impl Mcp {
    /// A server with `config` (its fetch settings and limits).
    ///
    /// # Errors
    /// The fetcher cannot be set up.
    pub fn new(config: Config) -> Result<Mcp, gleaner_crawl::CrawlError> {
        Ok(Mcp { state: State::new(config)?, tool_router: Mcp::tool_router() })
    }

    /// One page.
    #[tool(
        description = "Extract the main content of a web page (its `html`, or a `url` when the \
                       server fetches) as Markdown, with its metadata (title, author, date, \
                       language, page type) as JSON in a second content block. Options as \
                       gleaner serve's POST /v1/extract: base_url, algorithm, favor \
                       (precision, balanced, recall), links, images, template, …"
    )]
    async fn extract(
        &self,
        Parameters(request): Parameters<ExtractRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        let request = with_markdown(request);
        match crate::extract::extract(Arc::clone(&self.state), request, Scope::default()).await {
            Ok((_, result)) => {
                let record = &result.record;
                if let Some(e) = &record.error {
                    return Ok(failed(format!("{}: {e}", record.source)));
                }
                Ok(CallToolResult::success(vec![
                    ContentBlock::text(record.markdown.clone().unwrap_or_default()),
                    ContentBlock::text(metadata(record).to_string()),
                ]))
            }
            Err(e) => Ok(failed(e.to_string())),
        }
    }

    /// Several pages.
    #[tool(
        description = "Extract several pages at once; returns a JSON array with, for each page in \
                       order, its metadata and its Markdown (or its error)."
    )]
    async fn extract_batch(
        &self,
        Parameters(args): Parameters<BatchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut out = Vec::with_capacity(args.pages.len());
        for page in args.pages {
            let state = Arc::clone(&self.state);
            let value =
                match crate::extract::extract(state, with_markdown(page), Scope::default()).await {
                    Ok((_, result)) => {
                        let mut v = metadata(&result.record);
                        v["markdown"] = result.record.markdown.clone().unwrap_or_default().into();
                        v
                    }
                    Err(e) => serde_json::json!({ "error": e.to_string() }),
                };
            out.push(value);
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(
            serde_json::Value::Array(out).to_string(),
        )]))
    }

    /// Learn a site's template.
    #[tool(
        description = "Learn a site's template (menus, footers, boilerplate shared by its pages) \
                       from at least 2 of its pages (HTML in `pages`, or `urls`); returns the id to \
                       give as `template` to extract, which then sets that text aside."
    )]
    async fn site_template(
        &self,
        Parameters(args): Parameters<TemplateRequest>,
    ) -> Result<CallToolResult, ErrorData> {
        match crate::routes::learn(Arc::clone(&self.state), args).await {
            Ok(t) => Ok(CallToolResult::success(vec![ContentBlock::text(
                serde_json::json!({
                    "id": t.id, "pages": t.pages, "template_segments": t.template_segments
                })
                .to_string(),
            )])),
            Err(e) => Ok(failed(e.to_string())),
        }
    }
}

#[tool_handler]
impl ServerHandler for Mcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("gleaner", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "gleaner extracts the main content of web pages: call extract with a page's html \
                 (or url) to get clean Markdown and metadata.",
            )
    }
}

/// Serves MCP over standard input and output until the client leaves.
///
/// # Errors
/// The fetcher cannot be set up, or the transport fails.
pub async fn serve_stdio(config: Config) -> std::io::Result<()> {
    let server = Mcp::new(config).map_err(std::io::Error::other)?;
    let running = server.serve(rmcp::transport::stdio()).await.map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
