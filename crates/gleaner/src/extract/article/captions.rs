//! Part of pass 10, **captions** \[I\] (off by default; on in the
//! `--precision` preset): the text around a picture rather than the
//! article's own — `figcaption`s, blocks whose class names a caption or a
//! credit, photo credit lines, and a caption that appears twice (issue 11,
//! "Captions and galleries kept. `figcaption`, elements whose class says
//! caption/credit/legend … the same caption often appears twice").
//!
//! trafilatura leaves `figcaption` and captions out unless asked for
//! images; the dev sets' gold texts are split on it (some keep captions),
//! which is why leave-one-dataset-out does not choose this pass and it is
//! off by default.

use super::segments::Analysis;
use super::tail::selected_lines;
use crate::document::{Document, NodeId};
use crate::selection::Selection;

/// Class and id name parts of caption and credit blocks.
const CAPTION_NAMES: &[&str] = &[
    "caption",
    "captions",
    "figcaption",
    "credit",
    "credits",
    "legend",
    "photocredit",
    "imagecredit",
    "wp-caption-text",
];
/// How a photo credit line starts.
const CREDIT_PREFIXES: &[&str] =
    &["photo:", "photos:", "photograph:", "image:", "picture:", "credit:", "photo by", "foto:"];
/// Most words of a credit line \[I\].
const CREDIT_WORDS: usize = 12;
/// Most words of a caption compared for repeats \[I\].
const CAPTION_WORDS: usize = 60;

/// Pass 10, **captions**: inside the chosen elements, `figcaption`s and
/// blocks named as captions or credits (not headings, and not holding a
/// paragraph of their own), then photo credit lines and every line whose
/// text appears again in another line of the selection (with at most
/// [`CAPTION_WORDS`] words, next to a picture) are deselected.
pub(super) fn remove_captions(
    doc: &Document,
    a: &Analysis,
    chosen: &[NodeId],
    sel: &mut Selection,
) {
    let lines = selected_lines(doc, a, chosen, sel);
    let texts: Vec<String> = lines.lines.iter().map(|l| lines.text(doc, l)).collect();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for t in &texts {
        if (3..=CAPTION_WORDS).contains(&t.split_whitespace().count()) {
            *seen.entry(t.as_str()).or_default() += 1;
        }
    }
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            if doc.element(id).is_some() && is_caption_block(doc, id) {
                sel.deselect_subtree(doc, id);
                id = doc.subtree_end(id);
            } else {
                id = NodeId(id.0 + 1);
            }
        }
    }
    for (l, t) in lines.lines.iter().zip(&texts) {
        let repeated = seen.get(t.as_str()).is_some_and(|&n| n >= 2) && near_picture(doc, l.owner);
        if repeated || is_credit_line(t) {
            lines.deselect(l, sel);
        }
    }
}

/// A `figcaption`, or an element named as a caption or credit that is
/// not a heading and holds no `p` (a caption is a line, not a section).
fn is_caption_block(doc: &Document, id: NodeId) -> bool {
    use markup5ever::local_name;
    if doc.is(id, local_name!("figcaption")) {
        return true;
    }
    let Some(e) = doc.element(id) else { return false };
    if matches!(
        e.name,
        local_name!("h1") | local_name!("h2") | local_name!("h3") | local_name!("body")
    ) {
        return false;
    }
    let names = e.id_and_class();
    let named = names
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .flat_map(|n| std::iter::once(n).chain(n.split('-')))
        .any(|p| CAPTION_NAMES.contains(&p));
    named && !doc.subtree(id).skip(1).any(|c| doc.is(c, local_name!("p")))
}

/// A short line that credits a photograph: "Photo: …", "Credit: …", or
/// one that ends in a picture agency's name.
fn is_credit_line(text: &str) -> bool {
    if text.split_whitespace().count() > CREDIT_WORDS {
        return false;
    }
    let lower = text.to_lowercase();
    let lower = lower.trim().trim_start_matches('(');
    CREDIT_PREFIXES.iter().any(|p| lower.starts_with(p))
        || ["getty images", "shutterstock", "/ap", "/reuters", "/afp", "istock"]
            .iter()
            .any(|agency| lower.trim_end_matches(')').ends_with(agency))
}

/// Is the block beside a picture: its parent holds an `img`, `picture`
/// or `figure` and little text besides the block's (a figure, not the
/// article around it)?
fn near_picture(doc: &Document, block: NodeId) -> bool {
    use markup5ever::local_name;
    let Some(scope) = doc.parent(block) else { return false };
    if doc.stats(scope).chars > 2 * doc.stats(block).chars + 20 {
        return false;
    }
    doc.subtree(scope).any(|c| {
        matches!(
            doc.name(c),
            Some(&local_name!("img") | &local_name!("picture") | &local_name!("figure"))
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::extract::article::tests::{run_config, PARA};
    use crate::extract::article::ArticleConfig;

    fn run_with(html: &str, captions: bool) -> String {
        run_config(html, ArticleConfig { captions, ..Default::default() })
    }

    /// See: issue 11, "Captions and galleries kept. `figcaption`,
    /// elements whose class says caption/credit/legend … the same caption
    /// often appears twice".
    #[test]
    fn issue_11_captions_credits_and_repeated_captions_go() {
        let caption = "Waves break over the sea wall at high tide on Monday";
        let html = format!(
            "<article><p>{PARA}</p><figure><img src=a.jpg><figcaption>{caption}</figcaption></figure>\
             <p>{PARA}</p><div class=media><img src=a.jpg><div class=lightbox-text>{caption}</div></div>\
             <div class=image-credit>Jane Roe for the paper</div>\
             <p>{PARA}</p><p>Photo: John Smith/Getty Images</p></article>"
        );
        let out = run_with(&html, true);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        for junk in ["Waves break", "Jane Roe", "John Smith"] {
            assert!(!out.contains(junk), "{junk}: {out}");
        }
        let out = run_with(&html, false);
        assert!(out.contains("Waves break") && out.contains("John Smith"), "{out}");
    }

    #[test]
    fn a_repeated_line_away_from_pictures_and_a_captioned_section_stay() {
        let line = "Read the whole report on the storm here";
        let html = format!(
            "<article><p>{PARA}</p><p>{line}</p><p>{PARA}</p><p>{line}</p>\
             <div class=caption-section><p>{PARA} In a section.</p></div></article>"
        );
        let out = run_with(&html, true);
        assert_eq!(out.matches(line).count(), 2, "{out}");
        assert!(out.contains("In a section."), "{out}");
    }
}
