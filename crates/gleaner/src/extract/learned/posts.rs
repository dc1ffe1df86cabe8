//! A thread's posts signed: each kept post's author and date kept with it.
//!
//! Issue 30 asks for "all posts of a thread with their authors and dates".
//! A post's header — the member's name over it, the date it was written
//! (`ColdJ` / `June 14, 2024`, `Sat Feb 24, 2024 5:12 pm`) — is a block
//! of a word or three beside a body of paragraphs, shaped like the
//! header of every other post and like the names and dates of the "similar
//! threads" under it: the block model scores it at the margin, and keeps
//! it on some posts and not on others. WCXB-dev's annotators kept it on
//! the threads of many sites of each forum software in the set (XenForo,
//! phpBB, vBulletin, Invision) and left it out on others: measured in
//! `docs/todays-web.md`, the word F1 barely moves either way, and a reader
//! of the thread gets who wrote each post and when.
//!
//! [`keep_headers`] adds it back from the page's structure: a short block
//! that reads as a date ([`is_date_text`]), as a member's name, or as both
//! (a name's link and a date in one line) inside a
//! *post* — the nearest ancestor repeated by its siblings (the same tag
//! and `class`), of which both it and another of those siblings hold kept
//! text. A name or date outside every kept post
//! (a sidebar's "latest threads", the thread list under it) stays out.

use std::ops::Range;

use markup5ever::local_name;

use super::blocks::{Block, Blocks};
use super::names::{cue, Cue};
use crate::document::{Document, NodeId};
use crate::metadata::is_member_date_label;
use crate::selection::Selection;

/// Most words of a post's author block (`Fiveoaks Bouquet`).
pub const MAX_AUTHOR_WORDS: u32 = 4;

/// Most words of a post's date block (`Edited June 19, 2024 at 10:03
/// PM`).
pub const MAX_DATE_WORDS: u32 = 9;

/// Most levels from a header block's owner up to its post.
pub const MAX_POST_LEVELS: usize = 12;

/// The cues a header block is told by.
struct HeaderCues {
    time: Cue,
    date: Cue,
    author: Cue,
    person: Cue,
    meta: Cue,
    account: Cue,
    tools: Cue,
    share: Cue,
    nav: Cue,
}

impl HeaderCues {
    fn new() -> Option<HeaderCues> {
        Some(HeaderCues {
            time: cue("tag_time")?,
            date: cue("prop_date")?,
            author: cue("prop_author")?,
            person: cue("type_person")?,
            meta: cue("name_meta")?,
            account: cue("name_account")?,
            tools: cue("name_tools")?,
            share: cue("name_share")?,
            nav: cue("name_nav")?,
        })
    }

    /// Is `c` within `levels` of the block's owner, or on an inline
    /// element inside it?
    fn near(&self, b: &Block, c: Cue, levels: u8) -> bool {
        b.near[c] <= levels || b.inline.contains(c)
    }
}

/// Is block `b` (its text `text`, its text nodes `texts`) a post's
/// header: the date it was written, the member who wrote it, or both?
fn is_header(
    doc: &Document,
    page: Option<&url::Url>,
    cues: &HeaderCues,
    b: &Block,
    texts: &[NodeId],
    text: &str,
) -> bool {
    if b.words == 0 || [cues.tools, cues.share, cues.nav].iter().any(|&c| b.near[c] <= 1) {
        return false;
    }
    let dated = cues.near(b, cues.time, 0) || cues.near(b, cues.date, 1);
    let is_date = |text: &str| is_date_text(text) || (dated && is_marked_date(text));
    // A value of a definition list is a member's detail (XenForo's
    // `<dl class=pairs><dt>(an icon titled Joined)</dt><dd>Oct 25,
    // 2017</dd>`), not when the post was written.
    let detail = doc.is(b.owner, local_name!("dd"));
    if b.words <= MAX_DATE_WORDS && !detail && is_date(text) {
        return true;
    }
    // A member's name links to their profile; their title ("Full
    // Member"), counts ("25.8k posts") and badges under it do not, or
    // are numbers.
    let placed = cues.near(b, cues.author, 2)
        || cues.near(b, cues.person, 1)
        || cues.near(b, cues.meta, 3)
        || cues.near(b, cues.account, 3);
    // The block's texts: those under one link (its target) and the rest;
    // `None` as the target when they lie under two links.
    let (mut name, mut rest, mut href, mut one_link) = (String::new(), String::new(), None, true);
    for &t in texts {
        match link_target(doc, t) {
            Some(h) => {
                one_link &= href.is_none_or(|seen| seen == h);
                href = Some(h);
                name.push_str(doc.text(t));
                name.push(' ');
            }
            None => {
                rest.push_str(doc.text(t));
                rest.push(' ');
            }
        }
    }
    let href = href.filter(|_| one_link);
    // The member's profile tells a name the markup does not place, when
    // the block links nowhere else (not `ann Reply Quote`).
    let profile = href.is_some_and(|h| is_profile_address(h, page));
    if b.link_words == b.words {
        let first = texts.first().and_then(|&t| link_target(doc, t));
        return b.words <= MAX_AUTHOR_WORDS
            && (placed || profile)
            && is_name_text(text)
            && first.is_some_and(leads_away);
    }
    // Both in one line (Discourse's `fanboynz May 28, 2025, 10:39pm #5`):
    // the text of one link is the member, the rest the date.
    !detail
        && super::words(&name) <= MAX_AUTHOR_WORDS as usize
        && (placed || profile)
        && is_name_text(&name)
        && href.is_some_and(leads_away)
        && is_date(&rest)
}

/// The target of the link holding text node `t`, if any.
fn link_target(doc: &Document, t: NodeId) -> Option<&str> {
    let link = doc.ancestors(t).take(MAX_POST_LEVELS).find(|&a| doc.is(a, local_name!("a")))?;
    doc.attr(link, "href")
}

/// Does a link to `href` lead to another page (a member's profile), not
/// to a place on this one (`#top`) or a script?
fn leads_away(href: &str) -> bool {
    let href = href.trim();
    !href.is_empty()
        && !href.starts_with('#')
        && !href.to_ascii_lowercase().starts_with("javascript:")
}

/// The path segments that a member's profile sits under in the forum
/// software of the web (vBulletin's and XenForo's `/members/ann.12/`,
/// Discourse's `/u/ann`, Stack Exchange's `/users/12/ann`, Invision's
/// `/profile/12-ann/`).
const PROFILE_SEGMENTS: &[&str] =
    &["members", "member", "users", "user", "u", "profile", "profiles", "people"];

/// What follows a [`PROFILE_SEGMENTS`] segment in an account's pages, not
/// a member's (`/user/login?destination=…` under every comment's Reply).
const ACCOUNT_ACTIONS: &[&str] = &[
    "login",
    "logout",
    "log-in",
    "signin",
    "sign-in",
    "sign_in",
    "signup",
    "sign-up",
    "sign_up",
    "register",
    "password",
    "lost-password",
    "forgot",
    "new",
    "edit",
    "settings",
    "report",
];

/// The address a page of no known address is read at, for its links
/// within the site ([`is_profile_address`]).
const UNKNOWN_PAGE: &str = "http://site.invalid/";

/// Is `href`, a link of a page at `page` (when known), a member's profile
/// on the same site: a name after one of the [`PROFILE_SEGMENTS`] (and no
/// [`ACCOUNT_ACTIONS`] after it), or a script of the forum's members given
/// a member (phpBB's `memberlist.php?mode=viewprofile&u=12`, vBulletin's
/// `member.php?u=12`)? A name that links there is a post's author even
/// where the markup names nothing (vBulletin's `<a class="bigusername">`);
/// a profile on another site (a video channel's) is not a member's.
fn is_profile_address(href: &str, page: Option<&url::Url>) -> bool {
    // Resolved against the page, or a stand-in when it is not known: a
    // link that leaves its host (`https://…`, `//…`) leaves the site.
    let stand_in;
    let base = match page {
        Some(page) => page,
        None => match url::Url::parse(UNKNOWN_PAGE) {
            Ok(url) => {
                stand_in = url;
                &stand_in
            }
            Err(_) => return false,
        },
    };
    let Ok(target) = base.join(href.trim()) else { return false };
    // (The URL parser lower-cases a host.)
    fn site(u: &url::Url) -> Option<&str> {
        u.host_str().map(|h| h.trim_start_matches("www."))
    }
    if site(&target).is_none() || site(&target) != site(base) {
        return false;
    }
    let path = target.path().to_ascii_lowercase();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let under_profiles =
        segments.iter().position(|s| PROFILE_SEGMENTS.contains(s)).is_some_and(|at| {
            let after = &segments[at + 1..];
            !after.is_empty() && !after.iter().any(|s| ACCOUNT_ACTIONS.contains(s))
        });
    let asks = |key: &str, value: Option<&str>| {
        target.query_pairs().any(|(k, v)| k == key && value.is_none_or(|value| v == value))
    };
    let script = match segments.last().copied() {
        Some("memberlist.php") => asks("mode", Some("viewprofile")),
        Some("member.php" | "profile.php") => asks("u", None) || asks("userid", None),
        _ => false,
    };
    under_profiles || script
}

/// Can `text` be a member's name: two letters or more, no word of a
/// profile's counts or titles, no count (`22.6k`)?
fn is_name_text(text: &str) -> bool {
    let count = |w: &String| {
        let digits = w.trim_end_matches(['k', 'm']);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    text.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && !lower_words(text).iter().any(|w| PROFILE_WORDS.contains(&w.as_str()) || count(w))
}

/// `text`'s runs of letters and digits, lower-cased.
fn lower_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The names of months and weekdays.
const CALENDAR_NAMES: &[&str] = &[
    "jan",
    "january",
    "feb",
    "february",
    "mar",
    "march",
    "apr",
    "april",
    "may",
    "jun",
    "june",
    "jul",
    "july",
    "aug",
    "august",
    "sep",
    "sept",
    "september",
    "oct",
    "october",
    "nov",
    "november",
    "dec",
    "december",
    "mon",
    "monday",
    "tue",
    "tues",
    "tuesday",
    "wed",
    "wednesday",
    "thu",
    "thur",
    "thurs",
    "thursday",
    "fri",
    "friday",
    "sat",
    "saturday",
    "sun",
    "sunday",
];

/// The other words a date is written with besides its numbers.
const DATE_WORDS: &[&str] = &[
    "am",
    "pm",
    "at",
    "on",
    "ago",
    "edited",
    "posted",
    "updated",
    "last",
    "yesterday",
    "today",
    "minute",
    "minutes",
    "min",
    "mins",
    "hour",
    "hours",
    "hr",
    "hrs",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "a",
    "an",
    "utc",
    "gmt",
    "st",
    "nd",
    "rd",
    "th",
];

/// Words that a name or a count of a member's profile is labelled by,
/// whose dates are not a post's (`Joined: Mar 2019`).
const PROFILE_WORDS: &[&str] = &[
    "joined",
    "member",
    "members",
    "since",
    "registered",
    "posts",
    "messages",
    "location",
    "reactions",
    "reputation",
    "badges",
    "solutions",
    "points",
    "karma",
    "likes",
    "replies",
];

/// Does `text` read as a date or time a post was written: a number and a
/// month or weekday name, `ago`, or a numeric date (`11-29-2024`), in
/// words of dates only?
pub fn is_date_text(text: &str) -> bool {
    let Some(words) = date_words(text) else { return false };
    let named = words.iter().any(|w| CALENDAR_NAMES.contains(&w.as_str()) || w == "ago");
    let numeric = text.split(|c: char| c.is_whitespace() || c == ',').any(is_numeric_date);
    let digit = text.chars().any(|c| c.is_ascii_digit());
    digit && (named || numeric)
}

/// A date for a block the markup says is one (`<time>`,
/// `itemprop=datePublished`): date words, whatever they are, and a number
/// or `yesterday`.
fn is_marked_date(text: &str) -> bool {
    date_words(text).is_some_and(|w| !w.is_empty())
        && (text.chars().any(|c| c.is_ascii_digit()) || text.to_lowercase().contains("yesterday"))
}

/// `text`'s lower-cased words, when all but a `by NAME` at the end are
/// date words or hold a digit; `None` otherwise.
fn date_words(text: &str) -> Option<Vec<String>> {
    let lower = text.to_lowercase();
    let body = match lower.rsplit_once(" by ") {
        Some((before, after)) if after.split_whitespace().count() <= 3 => before.to_string(),
        _ => lower,
    };
    let words = lower_words(&body);
    let fits = |w: &String| {
        w.chars().any(|c| c.is_ascii_digit())
            || CALENDAR_NAMES.contains(&w.as_str())
            || DATE_WORDS.contains(&w.as_str())
    };
    (!words.iter().any(|w| PROFILE_WORDS.contains(&w.as_str())) && words.iter().all(fits))
        .then_some(words)
}

/// `11-29-2024`, `29.11.24`, `2024/11/29`: three runs of digits joined by
/// one separator.
fn is_numeric_date(s: &str) -> bool {
    let s = s.trim_matches(|c: char| !c.is_ascii_digit());
    let Some(sep) = s.chars().find(|c| !c.is_ascii_digit()) else { return false };
    let parts: Vec<&str> = s.split(sep).collect();
    matches!(sep, '-' | '/' | '.')
        && parts.len() == 3
        && parts.iter().all(|p| (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Most same-shaped siblings of a post read for kept text: a thread shows
/// twenty to fifty posts a page.
pub const MAX_SIBLINGS: usize = 100;

/// A header block (a date, a member's name, or both) and the posts it may belong to: for each
/// ancestor within [`MAX_POST_LEVELS`] that its parent repeats (another
/// element child of the same tag and `class`), nearest first, the blocks
/// under it and under each such sibling. Which of them is its post
/// depends on which blocks are kept ([`signs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The header block.
    pub block: usize,
    /// The repeated ancestors, nearest first.
    pub levels: Vec<Level>,
}

/// One repeated ancestor of a [`Candidate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The blocks under it.
    pub own: Range<usize>,
    /// The blocks under each of its same-shaped siblings (at most
    /// [`MAX_SIBLINGS`]).
    pub siblings: Vec<Range<usize>>,
}

/// Every block of the page that reads as a post's header, with its
/// repeated ancestors: what [`keep_headers`] decides over, whatever is
/// kept.
pub fn candidates(doc: &Document, blocks: &Blocks) -> Vec<Candidate> {
    let Some(cues) = HeaderCues::new() else { return Vec::new() };
    // Parsed once for every block's links.
    let page = doc.base_url().or_else(|| url::Url::parse(UNKNOWN_PAGE).ok());
    let body = doc.body();
    let under = |e: NodeId| blocks.under(doc, e);
    let mut out = Vec::new();
    for (i, b) in blocks.blocks.iter().enumerate() {
        if b.words > MAX_DATE_WORDS
            || !is_header(
                doc,
                page.as_ref(),
                &cues,
                b,
                blocks.texts(i),
                &spaced_text(doc, blocks, i),
            )
        {
            continue;
        }
        if i > 0 && is_member_date_label(&spaced_text(doc, blocks, i - 1)) {
            continue;
        }
        let mut levels = Vec::new();
        for e in doc.ancestors(b.owner).take(MAX_POST_LEVELS) {
            if e == body || doc.element(e).is_none() {
                break;
            }
            let Some(parent) = doc.parent(e) else { break };
            let name = doc.name(e);
            let class = doc.attr(e, "class").unwrap_or("");
            let same =
                |c: NodeId| doc.name(c) == name && doc.attr(c, "class").unwrap_or("") == class;
            let siblings: Vec<Range<usize>> = doc
                .children(parent)
                .filter(|&c| c != e && same(c))
                .take(MAX_SIBLINGS)
                .map(under)
                .collect();
            if !siblings.is_empty() {
                levels.push(Level { own: under(e), siblings });
            }
        }
        if !levels.is_empty() {
            out.push(Candidate { block: i, levels });
        }
    }
    out
}

/// The text of block `i` with a space between its text nodes: a
/// profile's `<span>10</span> <span>posts</span>` reads `10 posts`, not
/// `10posts`, whatever white space the page put between them.
fn spaced_text(doc: &Document, blocks: &Blocks, i: usize) -> String {
    let mut out = String::new();
    for &t in blocks.texts(i) {
        out.push_str(doc.text(t));
        out.push(' ');
    }
    out
}

/// Does candidate `c` sign a kept post? `kept(range)` says whether any of
/// those blocks is kept. Its post is the nearest repeated ancestor holding
/// kept blocks: it signs it when a same-shaped sibling holds kept blocks
/// too (another post); a nearest one whose siblings hold none is a part of
/// one post (a paragraph among paragraphs), and no thread.
pub fn signs(c: &Candidate, kept: impl Fn(Range<usize>) -> bool) -> bool {
    for level in &c.levels {
        if kept(level.own.clone()) {
            return level.siblings.iter().any(|r| kept(r.clone()));
        }
    }
    false
}

/// The candidates' blocks that sign a kept post ([`signs`]), given which
/// blocks are kept (`kept[i]`); the extractor and the trainer's held-out
/// texts both decide by it.
pub fn signing(candidates: &[Candidate], kept: &[bool]) -> Vec<usize> {
    // Kept blocks as a prefix count, so that a range is asked in one step.
    let mut prefix = Vec::with_capacity(kept.len() + 1);
    prefix.push(0u32);
    for (i, &k) in kept.iter().enumerate() {
        prefix.push(prefix[i] + u32::from(k));
    }
    let n = kept.len();
    let any = |r: Range<usize>| prefix[r.end.min(n)] > prefix[r.start.min(r.end).min(n)];
    candidates
        .iter()
        .filter(|c| c.block < n && !kept[c.block] && signs(c, any))
        .map(|c| c.block)
        .collect()
}

/// Adds to `selection` every header block of a post holding kept text
/// (see the [module docs](self)); returns how many were added.
pub fn keep_headers(doc: &Document, blocks: &Blocks, selection: &mut Selection) -> usize {
    let kept = blocks.kept(selection);
    let signed = signing(&candidates(doc, blocks), &kept);
    for &i in &signed {
        blocks.set(i, selection, true);
    }
    signed.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render;

    fn kept(html: &str, keep: &[&str]) -> String {
        let (doc, blocks, mut selection) = super::super::blocks::selecting(html, keep);
        keep_headers(&doc, &blocks, &mut selection);
        render::text(&doc, &selection)
    }

    const THREAD: &str = "<body><div class=thread>\
        <article class='message'><div class='user'><h4><a class='username' href='/members/ann.1/'>Ann</a></h4>\
        <h5 class='user-title'>Well-known member</h5><dl><dt>Joined</dt><dd>Mar 3, 2019</dd></dl>\
        <dl class=pairs><dt><span title=Joined></span></dt><dd>Apr 4, 2019</dd></dl></div>\
        <div class='body'><time datetime='2024-06-14'>Jun 14, 2024</time>\
        <p>My boiler makes a knocking sound at night.</p></div></article>\
        <article class='message'><div class='user'><a class='username' href='/members/bob.2/'>Bob</a></div>\
        <div class='body'><time datetime='2024-06-15'>Jun 15, 2024</time>\
        <p>Bleed the radiators first.</p></div><div class='user-links'><a href='#top'>Back up</a></div>\
        </article></div>\
        <aside><ul><li><a href='/members/cy.3/' class='username'>Cy</a> <time>Jun 16, 2024</time></li></ul></aside>\
        </body>";

    #[test]
    fn each_kept_post_keeps_its_author_and_date() {
        let text = kept(THREAD, &["boiler", "radiators"]);
        for want in ["Ann", "Jun 14, 2024", "Bob", "Jun 15, 2024"] {
            assert!(text.contains(want), "{want} missing from {text:?}");
        }
        assert!(!text.contains("Well-known member"), "{text:?}");
        assert!(!text.contains("Mar 3, 2019"), "a member's date: {text:?}");
        assert!(!text.contains("Apr 4, 2019"), "a member's detail: {text:?}");
        assert!(!text.contains("Cy"), "a sidebar's name: {text:?}");
        assert!(!text.contains("Back up"), "a link within the page: {text:?}");
        assert!(!text.contains("Jun 16"), "a sidebar's date: {text:?}");
    }

    #[test]
    fn a_lone_post_or_no_kept_post_adds_nothing() {
        assert_eq!(kept(THREAD, &[]), "");
        let one = "<body><article class=message><a class=username href=/u/ann>Ann</a>\
            <time>Jun 14, 2024</time><p>Only one post on this page.</p></article></body>";
        assert!(!kept(one, &["Only one post"]).contains("Ann"));
    }

    #[test]
    fn dates_as_threads_write_them() {
        for yes in [
            "Jun 14, 2024",
            "Sat Feb 24, 2024 5:12 pm",
            "11-29-2024, 09:03 AM",
            "January 11, 2025, 12:04am",
            "Edited June 19, 2024 by ColdJ",
            "3 days ago",
            "30 Jun 2024",
        ] {
            assert!(is_date_text(yes), "{yes}");
        }
        for no in ["Joined: Mar 2019", "Posts: 1,234", "May I ask a question?", "Reply", "2024"] {
            assert!(!is_date_text(no), "{no}");
        }
    }

    #[test]
    fn a_name_linking_to_a_profile_signs_its_post_unnamed() {
        // vBulletin: the name's link and its box say nothing of a member.
        let thread = "<body><div id=posts>\
            <div class=post><div class=box><a class=bigusername href='/forum/members/ann.html'>ann</a></div>\
            <div class=msg>My boiler makes a knocking sound at night.</div></div>\
            <div class=post><div class=box><a class=bigusername href='/forum/members/bob.html'>bob</a></div>\
            <div class=msg>Bleed the radiators first.</div></div>\
            <div class=post><div class=box><a class=bigusername href='/forum/threads/boilers.html'>Boilers</a></div>\
            <div class=msg>Another thread's title is no author.</div></div></div></body>";
        let text = kept(thread, &["boiler", "radiators", "Another thread"]);
        assert!(text.contains("ann") && text.contains("bob"), "{text:?}");
        assert!(!text.contains("Boilers"), "{text:?}");
    }

    #[test]
    fn a_name_and_a_date_in_one_line_sign_their_post() {
        // Discourse's view without scripts.
        let post = |name: &str, date: &str, n: u32, body: &str| {
            format!(
                "<div class='topic-body crawler-post'><div class='crawler-post-meta'>\
                <span class=creator itemprop=author><a href='/u/{name}'><span itemprop=name>{name}</span></a></span>\
                <span class=crawler-post-infos><time itemprop=datePublished datetime='2025-05-28'>{date}</time>\
                <span itemprop=position>{n}</span></span></div><div class=post itemprop=text><p>{body}</p></div></div>"
            )
        };
        let thread = format!(
            "<body><div id=posts>{}{}</div><div class=more><a href='/u/cy'>cy</a> <a href='/t/9'>Other thread</a></div></body>",
            post("ann", "May 6, 2025, 6:30pm", 1, "My boiler makes a knocking sound at night."),
            post("bob", "May 28, 2025, 10:39pm", 2, "Bleed the radiators first."),
        );
        let text = kept(&thread, &["boiler", "radiators"]);
        assert!(text.contains("ann May 6, 2025, 6:30pm"), "{text:?}");
        // A line of two links is no member's: the date's own link here.
        let two = thread.replace(
            "<time itemprop=datePublished datetime='2025-05-28'>May 28, 2025, 10:39pm</time>",
            "<a href='/t/9/2'>May 28, 2025, 10:39pm</a>",
        );
        assert!(!kept(&two, &["boiler", "radiators"]).contains("bob"), "two links");
        assert!(text.contains("bob May 28, 2025, 10:39pm"), "{text:?}");
        assert!(!text.contains("Other thread"), "{text:?}");
    }

    #[test]
    fn profile_addresses() {
        let page = url::Url::parse("https://www.flyertalk.com/forum/thread-12.html").ok();
        for yes in [
            "https://www.flyertalk.com/forum/members/lowjhg.html",
            "https://flyertalk.com/forum/members/lowjhg.html",
            "/members/ann.12/",
            "/u/ann",
            "users/12/ann",
            "./memberlist.php?mode=viewprofile&u=12",
            "member.php?u=12",
            "/profile/12-ann/",
        ] {
            assert!(is_profile_address(yes, page.as_ref()), "{yes}");
        }
        for no in [
            "/members/",
            "/forum/threads/12/",
            "/user/login?destination=/node/7#comment-3",
            "/users/12/edit",
            "https://www.youtube.com/user/ann",
            "//www.youtube.com/user/ann",
            "memberlist.php?mode=email&u=12",
            "member.php?menu=1",
            "#post12",
            "member.php",
        ] {
            assert!(!is_profile_address(no, page.as_ref()), "{no}");
        }
        // Where the page's address is not known, only a link within the
        // site tells.
        assert!(is_profile_address("/members/ann.12/", None));
        assert!(!is_profile_address("https://www.flyertalk.com/forum/members/ann.html", None));
    }

    #[test]
    fn names_are_not_a_members_counts_or_titles() {
        for yes in ["lgans316", "Chris Hall", "Ann"] {
            assert!(is_name_text(yes), "{yes}");
        }
        for no in ["10 posts", "22.6k", "Full Member", "4 Reputation", "1"] {
            assert!(!is_name_text(no), "{no}");
        }
        assert!(is_member_date_label("Joined:") && is_member_date_label("Member since"));
        assert!(!is_member_date_label("Well-known member"));
    }
}
