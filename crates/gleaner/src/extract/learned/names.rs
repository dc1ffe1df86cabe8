//! What an element's tag, ARIA role, microdata and `id`/`class` words say
//! about the text inside it, as a set of [`Cue`]s: the vocabulary the
//! learned block model reads (issue 32, "tag and class vocabulary
//! roles").
//!
//! Unlike `article`'s vocabulary, a cue carries no weight and no rule:
//! it only says "this element calls itself a sidebar", and the model
//! learns from labelled pages what that is worth for each page type and
//! at each distance from the text. The words are the ones boilerplate
//! and content markup commonly uses (Readability's lists, Boilerpipe's and
//! trafilatura's cleaning rules read for their vocabulary, and the CMS
//! names of the dev sets).
//!
//! A *name part* is a maximal run of ASCII letters and digits of the
//! lower-cased `id` and `class` (`post-body__text` has `post`, `body`
//! and `text`). A word matches a part as a whole (`Fit::Part`), as its
//! start (`Fit::Prefix`) or anywhere in the joined names
//! (`Fit::Anywhere`).

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind};
use markup5ever::local_name;

use super::super::name_table::NameTable;
use crate::document::ElementRef;

/// How a class or id word must sit in the names to match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// A whole name part (`ad` in `top-ad`, not in `header`).
    Part,
    /// The start of a name part (`comment` in `comments`).
    Prefix,
    /// Anywhere (`sidebar` in `leftsidebar`).
    Anywhere,
}

/// A cue: one thing an element can say about itself. Cues are bit
/// positions in a [`Cues`] set and columns of the feature rows.
pub type Cue = usize;

/// The cues read from `id` and `class` words, with their words. The name
/// is the feature's.
#[rustfmt::skip]
const NAME_CUES: &[(&str, &[(&str, Fit)])] = &[
    ("name_nav", &[("nav", Fit::Prefix), ("menu", Fit::Prefix), ("navbar", Fit::Anywhere), ("megamenu", Fit::Anywhere), ("dropdown", Fit::Prefix), ("drawer", Fit::Prefix), ("offcanvas", Fit::Anywhere), ("hamburger", Fit::Anywhere)]),
    ("name_header", &[("header", Fit::Prefix), ("masthead", Fit::Anywhere), ("topbar", Fit::Anywhere), ("top", Fit::Part), ("brand", Fit::Prefix), ("logo", Fit::Prefix)]),
    ("name_footer", &[("footer", Fit::Anywhere), ("foot", Fit::Part), ("colophon", Fit::Anywhere), ("bottom", Fit::Part), ("copyright", Fit::Anywhere), ("legal", Fit::Prefix)]),
    ("name_sidebar", &[("sidebar", Fit::Anywhere), ("side", Fit::Part), ("aside", Fit::Part), ("rail", Fit::Part), ("widget", Fit::Prefix), ("sidenav", Fit::Anywhere), ("secondary", Fit::Part), ("panel", Fit::Part)]),
    ("name_comment", &[("comment", Fit::Prefix), ("disqus", Fit::Anywhere), ("respond", Fit::Prefix), ("discussion", Fit::Prefix)]),
    ("name_share", &[("share", Fit::Prefix), ("social", Fit::Prefix), ("sharing", Fit::Anywhere), ("follow", Fit::Prefix), ("facebook", Fit::Anywhere), ("twitter", Fit::Anywhere), ("linkedin", Fit::Anywhere), ("whatsapp", Fit::Anywhere), ("pinterest", Fit::Anywhere), ("email", Fit::Part)]),
    ("name_related", &[("related", Fit::Prefix), ("recommend", Fit::Prefix), ("similar", Fit::Prefix), ("more", Fit::Part), ("also", Fit::Part), ("popular", Fit::Prefix), ("trending", Fit::Prefix), ("recent", Fit::Prefix), ("latest", Fit::Prefix), ("next", Fit::Part), ("prev", Fit::Prefix), ("outbrain", Fit::Anywhere), ("taboola", Fit::Anywhere), ("upsell", Fit::Anywhere), ("crosssell", Fit::Anywhere)]),
    ("name_ad", &[("ad", Fit::Part), ("ads", Fit::Part), ("advert", Fit::Prefix), ("sponsor", Fit::Prefix), ("promo", Fit::Prefix), ("banner", Fit::Prefix), ("dfp", Fit::Part), ("gpt", Fit::Part), ("adslot", Fit::Anywhere), ("affiliate", Fit::Prefix), ("partner", Fit::Prefix)]),
    ("name_consent", &[("cookie", Fit::Prefix), ("consent", Fit::Prefix), ("gdpr", Fit::Anywhere), ("privacy", Fit::Prefix), ("onetrust", Fit::Anywhere), ("cmp", Fit::Part), ("notice", Fit::Prefix)]),
    ("name_subscribe", &[("newsletter", Fit::Anywhere), ("subscri", Fit::Prefix), ("signup", Fit::Anywhere), ("optin", Fit::Anywhere), ("paywall", Fit::Anywhere), ("donate", Fit::Prefix), ("membership", Fit::Prefix), ("cta", Fit::Part)]),
    ("name_breadcrumb", &[("breadcrumb", Fit::Anywhere), ("crumb", Fit::Prefix), ("trail", Fit::Part)]),
    ("name_pagination", &[("pagination", Fit::Anywhere), ("pager", Fit::Prefix), ("paging", Fit::Prefix), ("pages", Fit::Part), ("loadmore", Fit::Anywhere)]),
    ("name_search", &[("search", Fit::Prefix), ("filter", Fit::Prefix), ("facet", Fit::Prefix), ("sort", Fit::Prefix), ("refine", Fit::Prefix)]),
    ("name_account", &[("login", Fit::Prefix), ("signin", Fit::Anywhere), ("account", Fit::Prefix), ("auth", Fit::Prefix), ("register", Fit::Prefix), ("user", Fit::Part), ("profile", Fit::Prefix), ("avatar", Fit::Prefix)]),
    ("name_modal", &[("modal", Fit::Prefix), ("popup", Fit::Prefix), ("overlay", Fit::Prefix), ("dialog", Fit::Prefix), ("lightbox", Fit::Anywhere), ("toast", Fit::Prefix), ("tooltip", Fit::Prefix), ("popover", Fit::Prefix)]),
    ("name_hidden", &[("hidden", Fit::Anywhere), ("hide", Fit::Prefix), ("sronly", Fit::Anywhere), ("sr", Fit::Part), ("visually", Fit::Prefix), ("screenreader", Fit::Anywhere), ("offscreen", Fit::Anywhere), ("print", Fit::Prefix), ("noscript", Fit::Anywhere), ("collapse", Fit::Prefix)]),
    ("name_meta", &[("meta", Fit::Prefix), ("byline", Fit::Anywhere), ("author", Fit::Prefix), ("date", Fit::Prefix), ("time", Fit::Prefix), ("posted", Fit::Prefix), ("published", Fit::Prefix), ("dateline", Fit::Anywhere), ("info", Fit::Part), ("details", Fit::Part)]),
    ("name_tags", &[("tag", Fit::Prefix), ("category", Fit::Prefix), ("categories", Fit::Anywhere), ("topic", Fit::Prefix), ("label", Fit::Prefix), ("badge", Fit::Prefix), ("chip", Fit::Prefix), ("pill", Fit::Prefix)]),
    ("name_caption", &[("caption", Fit::Prefix), ("credit", Fit::Prefix), ("figcaption", Fit::Anywhere), ("photo", Fit::Prefix), ("image", Fit::Prefix), ("img", Fit::Prefix), ("media", Fit::Prefix), ("gallery", Fit::Prefix), ("slide", Fit::Prefix), ("carousel", Fit::Prefix), ("video", Fit::Prefix), ("player", Fit::Prefix)]),
    ("name_title", &[("title", Fit::Prefix), ("headline", Fit::Prefix), ("heading", Fit::Prefix), ("hed", Fit::Part), ("subtitle", Fit::Anywhere), ("dek", Fit::Part), ("standfirst", Fit::Anywhere), ("lede", Fit::Prefix), ("intro", Fit::Prefix), ("summary", Fit::Prefix), ("excerpt", Fit::Prefix)]),
    ("name_article", &[("article", Fit::Anywhere), ("post", Fit::Prefix), ("entry", Fit::Anywhere), ("story", Fit::Anywhere), ("blog", Fit::Prefix), ("hentry", Fit::Anywhere), ("news", Fit::Prefix)]),
    ("name_content", &[("content", Fit::Anywhere), ("main", Fit::Prefix), ("body", Fit::Anywhere), ("text", Fit::Prefix), ("prose", Fit::Anywhere), ("copy", Fit::Part), ("rich", Fit::Prefix), ("wysiwyg", Fit::Anywhere), ("markdown", Fit::Anywhere), ("editorial", Fit::Anywhere), ("description", Fit::Anywhere), ("desc", Fit::Part)]),
    ("name_product", &[("product", Fit::Prefix), ("price", Fit::Prefix), ("cart", Fit::Prefix), ("buy", Fit::Prefix), ("shop", Fit::Prefix), ("sku", Fit::Part), ("variant", Fit::Prefix), ("swatch", Fit::Prefix), ("quantity", Fit::Prefix), ("qty", Fit::Part), ("checkout", Fit::Anywhere), ("stock", Fit::Prefix), ("pdp", Fit::Part), ("spec", Fit::Prefix), ("feature", Fit::Prefix)]),
    ("name_review", &[("review", Fit::Prefix), ("rating", Fit::Prefix), ("stars", Fit::Prefix), ("testimonial", Fit::Prefix), ("feedback", Fit::Prefix)]),
    ("name_card", &[("card", Fit::Prefix), ("tile", Fit::Prefix), ("item", Fit::Prefix), ("grid", Fit::Prefix), ("teaser", Fit::Prefix), ("thumb", Fit::Prefix), ("cell", Fit::Prefix)]),
    ("name_list", &[("list", Fit::Prefix), ("listing", Fit::Prefix), ("results", Fit::Prefix), ("archive", Fit::Prefix), ("feed", Fit::Prefix), ("collection", Fit::Prefix), ("river", Fit::Prefix), ("stream", Fit::Prefix)]),
    ("name_thread", &[("thread", Fit::Prefix), ("message", Fit::Prefix), ("reply", Fit::Prefix), ("replies", Fit::Prefix), ("forum", Fit::Prefix), ("answer", Fit::Prefix), ("question", Fit::Prefix), ("topic", Fit::Prefix), ("bbcode", Fit::Anywhere), ("quote", Fit::Prefix), ("signature", Fit::Prefix), ("postbody", Fit::Anywhere), ("cooked", Fit::Part)]),
    ("name_toc", &[("toc", Fit::Part), ("tableofcontents", Fit::Anywhere), ("contents", Fit::Part), ("outline", Fit::Prefix), ("onthispage", Fit::Anywhere), ("anchor", Fit::Prefix)]),
    ("name_code", &[("code", Fit::Prefix), ("highlight", Fit::Prefix), ("syntax", Fit::Prefix), ("hljs", Fit::Anywhere), ("prism", Fit::Prefix), ("language", Fit::Prefix), ("snippet", Fit::Prefix), ("console", Fit::Prefix), ("terminal", Fit::Prefix)]),
    ("name_docs", &[("doc", Fit::Prefix), ("docs", Fit::Prefix), ("documentation", Fit::Anywhere), ("api", Fit::Part), ("reference", Fit::Prefix), ("guide", Fit::Prefix), ("manual", Fit::Prefix), ("rst", Fit::Part), ("sphinx", Fit::Anywhere), ("mdx", Fit::Part), ("theme", Fit::Prefix)]),
    ("name_faq", &[("faq", Fit::Prefix), ("accordion", Fit::Prefix), ("collapsible", Fit::Prefix), ("toggle", Fit::Prefix), ("tab", Fit::Part), ("tabs", Fit::Part), ("expand", Fit::Prefix)]),
    ("name_section", &[("hero", Fit::Prefix), ("section", Fit::Prefix), ("block", Fit::Prefix), ("module", Fit::Prefix), ("container", Fit::Prefix), ("wrapper", Fit::Prefix), ("row", Fit::Part), ("layout", Fit::Prefix)]),
    ("name_tools", &[("toolbar", Fit::Anywhere), ("tools", Fit::Part), ("actions", Fit::Prefix), ("button", Fit::Prefix), ("btn", Fit::Prefix), ("icon", Fit::Prefix), ("control", Fit::Prefix), ("print", Fit::Part), ("bookmark", Fit::Prefix), ("vote", Fit::Prefix), ("like", Fit::Prefix), ("helpful", Fit::Prefix), ("edit", Fit::Prefix), ("feedback", Fit::Prefix)]),
    ("name_skip", &[("skip", Fit::Prefix), ("jump", Fit::Prefix), ("backtotop", Fit::Anywhere), ("totop", Fit::Anywhere), ("scroll", Fit::Prefix)]),
    ("name_contact", &[("contact", Fit::Prefix), ("address", Fit::Prefix), ("phone", Fit::Prefix), ("location", Fit::Prefix), ("hours", Fit::Prefix), ("map", Fit::Part)]),
    ("name_bio", &[("bio", Fit::Prefix), ("about", Fit::Prefix), ("person", Fit::Prefix), ("team", Fit::Prefix), ("staff", Fit::Prefix)]),
];

/// The cues read from tags.
#[rustfmt::skip]
const TAG_CUES: &[&str] = &[
    "tag_nav", "tag_header", "tag_footer", "tag_aside", "tag_form", "tag_main", "tag_article",
    "tag_section", "tag_table", "tag_list", "tag_li", "tag_figure", "tag_blockquote", "tag_a",
    "tag_button", "tag_label", "tag_dialog", "tag_details", "tag_heading", "tag_time",
    "tag_address", "tag_code", "tag_strong", "tag_dl", "tag_select", "tag_small", "tag_cite",
];

/// The cues read from ARIA roles and microdata.
#[rustfmt::skip]
const MARKUP_CUES: &[&str] = &[
    "role_navigation", "role_banner", "role_contentinfo", "role_complementary", "role_main",
    "role_article", "role_dialog", "role_search", "role_tabpanel", "prop_body", "prop_name", "prop_author",
    "prop_date", "type_article", "type_comment", "type_product", "type_review", "type_offer",
    "type_person", "type_list",
];

/// Number of cues of all kinds.
pub const CUES: usize = NAME_CUES.len() + TAG_CUES.len() + MARKUP_CUES.len();

/// A set of cues.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cues(u128);

const _: () = assert!(CUES <= 128);

impl Cues {
    /// Adds a cue.
    pub fn insert(&mut self, cue: Cue) {
        self.0 |= 1 << cue;
    }

    /// Is the cue in the set?
    pub fn contains(self, cue: Cue) -> bool {
        self.0 & (1 << cue) != 0
    }

    /// Is the set empty?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cues of the set, ascending.
    pub fn iter(self) -> impl Iterator<Item = Cue> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let c = bits.trailing_zeros() as Cue;
            bits &= bits - 1;
            Some(c)
        })
    }

    /// The union.
    pub fn union(self, other: Cues) -> Cues {
        Cues(self.0 | other.0)
    }
}

/// The feature name of every cue, in cue order.
pub fn cue_names() -> impl Iterator<Item = &'static str> {
    NAME_CUES
        .iter()
        .map(|(n, _)| *n)
        .chain(TAG_CUES.iter().copied())
        .chain(MARKUP_CUES.iter().copied())
}

/// The cue of a name, for callers that read one cue by name.
pub fn cue(name: &str) -> Option<Cue> {
    cue_names().position(|n| n == name)
}

/// The position of `name` in `names`, at compile time.
///
/// The `panic!` below never runs in a built program: this function is
/// reached only through [`tag_cue`] and [`markup_cue`], whose every call
/// site is an inline `const { … }` block over a literal name, so a
/// misspelt name is a compile error (a panic during const evaluation),
/// not a run-time one. No input of a page reaches it.
const fn position(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not a cue name")
}

/// The cue of a tag cue's name; called only in `const { … }` blocks
/// (see [`position`]).
pub(super) const fn tag_cue(name: &str) -> Cue {
    NAME_CUES.len() + position(TAG_CUES, name)
}

/// The cue of a role's or microdata's cue name; called only in
/// `const { … }` blocks (see [`position`]).
pub(super) const fn markup_cue(name: &str) -> Cue {
    NAME_CUES.len() + TAG_CUES.len() + position(MARKUP_CUES, name)
}

/// The words of [`NAME_CUES`] in one automaton, each with its cue and fit.
struct NameMatcher {
    automaton: AhoCorasick,
    words: Vec<(Cue, Fit, usize)>,
}

fn name_matcher() -> Option<&'static NameMatcher> {
    static MATCHER: OnceLock<Option<NameMatcher>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let mut patterns = Vec::new();
            let mut words = Vec::new();
            for (cue, (_, list)) in NAME_CUES.iter().enumerate() {
                for &(word, fit) in *list {
                    patterns.push(word);
                    words.push((cue, fit, word.len()));
                }
            }
            // A DFA: built once, the fastest to run over every element.
            AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .build(&patterns)
                .ok()
                .map(|automaton| NameMatcher { automaton, words })
        })
        .as_ref()
}

/// The cues of an `id` or `class` value, lower-cased.
fn name_cues(names: &str) -> Cues {
    let mut cues = Cues::default();
    let Some(m) = name_matcher() else { return cues };
    let bytes = names.as_bytes();
    let is_part = |b: u8| b.is_ascii_alphanumeric();
    for found in m.automaton.find_overlapping_iter(names) {
        let Some(&(cue, fit, _)) = m.words.get(found.pattern().as_usize()) else { continue };
        if cues.contains(cue) {
            continue;
        }
        let starts = found.start() == 0 || !is_part(bytes[found.start() - 1]);
        let ends = found.end() >= bytes.len() || !is_part(bytes[found.end()]);
        let fits = match fit {
            Fit::Anywhere => true,
            Fit::Prefix => starts,
            Fit::Part => starts && ends,
        };
        if fits {
            cues.insert(cue);
        }
    }
    cues
}

/// Every cue an element gives: its tag's, its role's and microdata's, and
/// its `id` and `class` words'. `names` is the page's table of the cues
/// of its `class` values, which the caller keeps from element to element.
pub(crate) fn element_cues<'d>(e: &ElementRef<'d>, names: &mut NameTable<'d, Cues>) -> Cues {
    let mut cues = Cues::default();
    let tag = match *e.name() {
        local_name!("nav") | local_name!("menu") => Some(const { tag_cue("tag_nav") }),
        local_name!("header") => Some(const { tag_cue("tag_header") }),
        local_name!("footer") => Some(const { tag_cue("tag_footer") }),
        local_name!("aside") => Some(const { tag_cue("tag_aside") }),
        local_name!("form") | local_name!("input") | local_name!("textarea") => {
            Some(const { tag_cue("tag_form") })
        }
        local_name!("main") => Some(const { tag_cue("tag_main") }),
        local_name!("article") => Some(const { tag_cue("tag_article") }),
        local_name!("section") => Some(const { tag_cue("tag_section") }),
        local_name!("table") | local_name!("tr") | local_name!("td") | local_name!("th") => {
            Some(const { tag_cue("tag_table") })
        }
        local_name!("ul") | local_name!("ol") => Some(const { tag_cue("tag_list") }),
        local_name!("li") => Some(const { tag_cue("tag_li") }),
        local_name!("figure") | local_name!("figcaption") | local_name!("picture") => {
            Some(const { tag_cue("tag_figure") })
        }
        local_name!("blockquote") | local_name!("q") => Some(const { tag_cue("tag_blockquote") }),
        local_name!("a") => Some(const { tag_cue("tag_a") }),
        local_name!("button") => Some(const { tag_cue("tag_button") }),
        local_name!("label") | local_name!("legend") => Some(const { tag_cue("tag_label") }),
        local_name!("dialog") => Some(const { tag_cue("tag_dialog") }),
        local_name!("details") | local_name!("summary") => Some(const { tag_cue("tag_details") }),
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6") => Some(const { tag_cue("tag_heading") }),
        local_name!("time") => Some(const { tag_cue("tag_time") }),
        local_name!("address") => Some(const { tag_cue("tag_address") }),
        local_name!("pre") | local_name!("code") | local_name!("kbd") | local_name!("samp") => {
            Some(const { tag_cue("tag_code") })
        }
        local_name!("strong") | local_name!("b") | local_name!("em") => {
            Some(const { tag_cue("tag_strong") })
        }
        local_name!("dl") | local_name!("dt") | local_name!("dd") => {
            Some(const { tag_cue("tag_dl") })
        }
        local_name!("select") | local_name!("option") => Some(const { tag_cue("tag_select") }),
        local_name!("small") | local_name!("sub") | local_name!("sup") => {
            Some(const { tag_cue("tag_small") })
        }
        local_name!("cite") => Some(const { tag_cue("tag_cite") }),
        _ => None,
    };
    if let Some(t) = tag {
        cues.insert(t);
    }
    let [role, itemprop, itemtype, id, class] = e.attrs_named([
        &local_name!("role"),
        &local_name!("itemprop"),
        &local_name!("itemtype"),
        &local_name!("id"),
        &local_name!("class"),
    ]);
    if let Some(role) = role {
        let role = role.trim().to_ascii_lowercase();
        let cue = match role.as_str() {
            "navigation" | "menu" | "menubar" | "tablist" => {
                Some(const { markup_cue("role_navigation") })
            }
            "banner" => Some(const { markup_cue("role_banner") }),
            "contentinfo" => Some(const { markup_cue("role_contentinfo") }),
            "complementary" => Some(const { markup_cue("role_complementary") }),
            "main" => Some(const { markup_cue("role_main") }),
            "article" => Some(const { markup_cue("role_article") }),
            "dialog" | "alertdialog" | "alert" => Some(const { markup_cue("role_dialog") }),
            "search" => Some(const { markup_cue("role_search") }),
            "tabpanel" => Some(const { markup_cue("role_tabpanel") }),
            _ => None,
        };
        if let Some(c) = cue {
            cues.insert(c);
        }
    }
    if let Some(prop) = itemprop {
        for p in prop.split_ascii_whitespace() {
            let cue = match p {
                "articleBody" | "text" | "reviewBody" | "description" | "mainEntityOfPage" => {
                    Some(const { markup_cue("prop_body") })
                }
                "name" | "headline" => Some(const { markup_cue("prop_name") }),
                "author" | "creator" => Some(const { markup_cue("prop_author") }),
                "datePublished" | "dateModified" | "dateCreated" => {
                    Some(const { markup_cue("prop_date") })
                }
                _ => None,
            };
            if let Some(c) = cue {
                cues.insert(c);
            }
        }
    }
    if let Some(t) = itemtype {
        let t = t.rsplit('/').next().unwrap_or("");
        let cue = match t {
            "Article" | "NewsArticle" | "BlogPosting" | "TechArticle" | "Report" => {
                Some(const { markup_cue("type_article") })
            }
            "Comment" | "Answer" | "Question" | "DiscussionForumPosting" => {
                Some(const { markup_cue("type_comment") })
            }
            "Product" | "IndividualProduct" => Some(const { markup_cue("type_product") }),
            "Review" | "AggregateRating" => Some(const { markup_cue("type_review") }),
            "Offer" | "AggregateOffer" => Some(const { markup_cue("type_offer") }),
            "Person" | "Organization" => Some(const { markup_cue("type_person") }),
            "ItemList" | "ListItem" | "BreadcrumbList" | "SiteNavigationElement" => {
                Some(const { markup_cue("type_list") })
            }
            _ => None,
        };
        if let Some(c) = cue {
            cues.insert(c);
        }
    }
    // No cue word holds a space, so the cues of the id and the class are
    // read apart and joined.
    let (id_cues, class_cues) = names.id_and_class(id, class, name_cues);
    cues.union(id_cues).union(class_cues)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Document, ParseOptions};

    fn cues_of(html: &str) -> Vec<&'static str> {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let body = doc.body();
        let first = doc.children(body).next().expect("an element");
        let e = doc.element(first).expect("element");
        let names: Vec<&str> = cue_names().collect();
        element_cues(&e, &mut NameTable::for_page(&doc)).iter().map(|c| names[c]).collect()
    }

    #[test]
    fn words_match_as_parts_prefixes_or_anywhere() {
        assert_eq!(cues_of("<div class='top-ad'>x</div>"), ["name_header", "name_ad"]);
        assert_eq!(cues_of("<div class='header'>x</div>"), ["name_header"]);
        assert_eq!(cues_of("<div class='leftsidebar'>x</div>"), ["name_sidebar"]);
        assert_eq!(cues_of("<div id='comments-area'>x</div>"), ["name_comment"]);
        assert!(cues_of("<div class='shadow'>x</div>").is_empty());
    }

    #[test]
    fn tags_roles_and_microdata_are_cues() {
        assert_eq!(cues_of("<nav>x</nav>"), ["tag_nav"]);
        assert_eq!(
            cues_of("<div role=navigation itemprop=articleBody>x</div>"),
            ["role_navigation", "prop_body"]
        );
        assert_eq!(cues_of("<div itemtype='https://schema.org/Product'>x</div>"), ["type_product"]);
    }
}
