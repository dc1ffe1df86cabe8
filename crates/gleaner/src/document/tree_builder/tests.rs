//! The own tree builder on small pages: the adoption agency, foster
//! parenting, implied end tags, and that it builds what html5ever builds.

use crate::document::conformance::{gleaner_tree, own_tree};

/// The body's subtree in the html5lib format without the `| ` margin and
/// the `html`/`head`/`body` lines, one node per line, indented by two
/// spaces per level under the body.
fn body(html: &str) -> String {
    let tree = own_tree(html, true);
    let mut out = Vec::new();
    let mut in_body = false;
    for line in tree.lines() {
        let line = line.strip_prefix("| ").unwrap_or(line);
        if line == "  <body>" {
            in_body = true;
            continue;
        }
        if in_body {
            out.push(line.get(4..).unwrap_or("").to_string());
        }
    }
    out.join("\n")
}

#[test]
fn adoption_agency_splits_a_formatting_element_around_a_block() {
    assert_eq!(body("<b>1<p>2</b>3</p>"), "<b>\n  \"1\"\n<p>\n  <b>\n    \"2\"\n  \"3\"");
}

#[test]
fn adoption_agency_reopens_nested_formatting() {
    // The `i` inside the `b` is closed with it and re-created in the div.
    assert_eq!(
        body("<b><i>x<div>y</b>z</div>"),
        "<b>\n  <i>\n    \"x\"\n<i>\n  <div>\n    <b>\n      \"y\"\n    \"z\""
    );
}

#[test]
fn a_nested_anchor_closes_the_open_one() {
    assert_eq!(
        body("<a href=1>x<a href=2>y"),
        "<a>\n  href=\"1\"\n  \"x\"\n<a>\n  href=\"2\"\n  \"y\""
    );
}

#[test]
fn text_misplaced_in_a_table_is_foster_parented() {
    assert_eq!(
        body("<table><tr>x<td>y</td></tr></table>"),
        "\"x\"\n<table>\n  <tbody>\n    <tr>\n      <td>\n        \"y\""
    );
    assert_eq!(body("<table><b>x</b></table>"), "<b>\n  \"x\"\n<table>");
}

#[test]
fn paragraphs_and_list_items_close_implicitly() {
    assert_eq!(body("<p>a<p>b"), "<p>\n  \"a\"\n<p>\n  \"b\"");
    assert_eq!(body("<ul><li>a<li>b</ul>"), "<ul>\n  <li>\n    \"a\"\n  <li>\n    \"b\"");
    assert_eq!(body("<p>a<div>b</div>"), "<p>\n  \"a\"\n<div>\n  \"b\"");
    // A stray </p> makes an empty paragraph.
    assert_eq!(body("<div></p>x</div>"), "<div>\n  <p>\n  \"x\"");
}

#[test]
fn quirks_mode_keeps_a_table_in_its_paragraph() {
    // §13.2.6.4.7 `<table>`: a `p` is closed first unless in quirks mode
    // (no DOCTYPE).
    assert_eq!(body("<p><table></table>"), "<p>\n  <table>");
    let tree = own_tree("<!DOCTYPE html><p><table></table>", true);
    assert!(tree.ends_with("|     <p>\n|     <table>\n"), "{tree}");
}

#[test]
fn foreign_content_is_adjusted_and_broken_out_of() {
    assert_eq!(
        body("<svg viewbox=0><foreignobject><p>x</p></foreignobject></svg><p>y"),
        "<svg svg>\n  viewBox=\"0\"\n  <svg foreignObject>\n    <p>\n      \"x\"\n<p>\n  \"y\""
    );
    assert_eq!(
        body("<math><mi>x</mi><div>y"),
        "<math math>\n  <math mi>\n    \"x\"\n<div>\n  \"y\""
    );
}

#[test]
fn same_trees_as_html5ever_on_ordinary_pages() {
    for page in [
        "<!DOCTYPE html><html><head><title>T</title><meta charset=utf-8></head><body><div class=a><p>x<b>y</b></p></div></body></html>",
        "<table><caption>c<tr><td>1<td>2<tr><th>3</table>after",
        "<select><option>a<option>b</select><form><input type=hidden></form>",
        "<dl><dt>a<dd>b<dt>c</dl><h1>h<h2>i</h2>",
        "<frameset><frame></frameset>",
        "<template><tr><td>x</td></tr></template>",
        "<pre>\nx</pre><textarea>\ny</textarea>",
    ] {
        assert_eq!(own_tree(page, true), gleaner_tree(page, true), "{page}");
    }
}

#[test]
fn the_void_class_is_the_void_elements() {
    use super::{class, html_class};
    use crate::document::tags::is_void;
    use markup5ever::LocalName;
    let names = "a area b base basefont bgsound body br button col colgroup div embed \
                 frame hr html img input keygen li link meta p param source span table \
                 td template track tr wbr xmp x-custom";
    for name in names.split_whitespace().map(LocalName::from) {
        assert_eq!(html_class(&name) & class::VOID != 0, is_void(&name), "{name}");
    }
}

#[test]
fn end_tags_of_the_current_node_pop_it() {
    // The fast path of `process_end_tag`: plain elements, formatting
    // elements last in the list, and the elements with rules of their own.
    assert_eq!(body("<div><span>a</span>b</div>c"), "<div>\n  <span>\n    \"a\"\n  \"b\"\n\"c\"");
    assert_eq!(body("<b>x</b><b>y</b>z"), "<b>\n  \"x\"\n<b>\n  \"y\"\n\"z\"");
    assert_eq!(body("<p><b>x</p>y"), "<p>\n  <b>\n    \"x\"\n<b>\n  \"y\"");
    assert_eq!(body("<object><b>x</object>y"), "<object>\n  <b>\n    \"x\"\n\"y\"");
    assert_eq!(body("<form><p>x</form>y"), "<form>\n  <p>\n    \"x\"\n\"y\"");
    for page in [
        "<div><b>x<i>y</b>z</i></div>",
        "<ul><li>a</li><li>b</ul>",
        "<h2>x</h3>y</h2>",
        // `p_maybe_open`: a p closed by a block, kept open past a button
        // or a table, found again after none was.
        "<p>a<div>b</div><p>c<button><p>d<div>e</div></button>f<div>g",
        "<p>x</p><div>y</div><p>z<ul><li>w</ul><p>v<table><tr><td><div>u</table><div>t",
        "<div>a</div><svg><p>b</svg><div>c<p>d<section>e",
        // Each element the fast path leaves to the full rules, as the
        // current node's ancestor or itself (review of the round that
        // added it): removing one of them from the exclusions fails here.
        "<object><p><b>x</p></object>y",
        "<marquee><p><i>x</p></marquee>y",
        "<applet><p><i>x</p></applet>y",
        "<form></form><form><input>",
        "<a><template><div></div></template><a>x",
        // A formatting element that is current but not last in the list.
        "<b><p><i>x</p></b>y",
    ] {
        assert_eq!(own_tree(page, true), gleaner_tree(page, true), "{page}");
    }
}
