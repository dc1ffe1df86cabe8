//! Foreign content: SVG and MathML (WHATWG §13.2.6.5 "the rules for
//! parsing tokens in foreign content", and the name adjustments of
//! §13.2.6.1 "adjust SVG attributes", "adjust MathML attributes",
//! "adjust foreign attributes", and the SVG tag name table of §13.2.6.5).

use html5ever::tokenizer::TagKind;
use markup5ever::{local_name, LocalName};

use super::{attr, class, is_space, OwnTreeBuilder, Result, Tag, Token, DONE};
use crate::document::sink::ElementNs;
use crate::document::{AttributeNs, TagAttributes};

/// SVG element names with capitals; the tokenizer lower-cases them.
const SVG_TAG_NAMES: &[&str] = &[
    "altGlyph",
    "altGlyphDef",
    "altGlyphItem",
    "animateColor",
    "animateMotion",
    "animateTransform",
    "clipPath",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
    "foreignObject",
    "glyphRef",
    "linearGradient",
    "radialGradient",
    "textPath",
];

/// SVG attribute names with capitals.
const SVG_ATTRIBUTE_NAMES: &[&str] = &[
    "attributeName",
    "attributeType",
    "baseFrequency",
    "baseProfile",
    "calcMode",
    "clipPathUnits",
    "diffuseConstant",
    "edgeMode",
    "filterUnits",
    "glyphRef",
    "gradientTransform",
    "gradientUnits",
    "kernelMatrix",
    "kernelUnitLength",
    "keyPoints",
    "keySplines",
    "keyTimes",
    "lengthAdjust",
    "limitingConeAngle",
    "markerHeight",
    "markerUnits",
    "markerWidth",
    "maskContentUnits",
    "maskUnits",
    "numOctaves",
    "pathLength",
    "patternContentUnits",
    "patternTransform",
    "patternUnits",
    "pointsAtX",
    "pointsAtY",
    "pointsAtZ",
    "preserveAlpha",
    "preserveAspectRatio",
    "primitiveUnits",
    "refX",
    "refY",
    "repeatCount",
    "repeatDur",
    "requiredExtensions",
    "requiredFeatures",
    "specularConstant",
    "specularExponent",
    "spreadMethod",
    "startOffset",
    "stdDeviation",
    "stitchTiles",
    "surfaceScale",
    "systemLanguage",
    "tableValues",
    "targetX",
    "targetY",
    "textLength",
    "viewBox",
    "viewTarget",
    "xChannelSelector",
    "yChannelSelector",
    "zoomAndPan",
];

/// The mixed-case form of `name` in `table`, if any.
fn mixed_case(table: &[&str], name: &LocalName) -> Option<LocalName> {
    if !name.bytes().any(|b| b.is_ascii_lowercase()) {
        return None;
    }
    table.iter().find(|m| m.eq_ignore_ascii_case(name)).map(|m| LocalName::from(*m))
}

/// The SVG element name for lower-cased `name`.
fn svg_tag_name(name: LocalName) -> LocalName {
    mixed_case(SVG_TAG_NAMES, &name).unwrap_or(name)
}

/// Start tags that break out of foreign content (§13.2.6.5).
fn breaks_out(tag: &Tag) -> bool {
    match tag.name {
        local_name!("b")
        | local_name!("big")
        | local_name!("blockquote")
        | local_name!("body")
        | local_name!("br")
        | local_name!("center")
        | local_name!("code")
        | local_name!("dd")
        | local_name!("div")
        | local_name!("dl")
        | local_name!("dt")
        | local_name!("em")
        | local_name!("embed")
        | local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("head")
        | local_name!("hr")
        | local_name!("i")
        | local_name!("img")
        | local_name!("li")
        | local_name!("listing")
        | local_name!("menu")
        | local_name!("meta")
        | local_name!("nobr")
        | local_name!("ol")
        | local_name!("p")
        | local_name!("pre")
        | local_name!("ruby")
        | local_name!("s")
        | local_name!("small")
        | local_name!("span")
        | local_name!("strong")
        | local_name!("strike")
        | local_name!("sub")
        | local_name!("sup")
        | local_name!("table")
        | local_name!("tt")
        | local_name!("u")
        | local_name!("ul")
        | local_name!("var") => true,
        local_name!("font") => [local_name!("color"), local_name!("face"), local_name!("size")]
            .iter()
            .any(|a| attr(tag, a).is_some()),
        _ => false,
    }
}

/// "Adjust foreign attributes", and the SVG or MathML attribute names.
fn adjust_attributes(ns: ElementNs, attrs: &mut TagAttributes) {
    for a in attrs.names_mut() {
        if a.ns != AttributeNs::None {
            continue;
        }
        let local = &a.name;
        match ns {
            ElementNs::Svg => {
                if let Some(m) = mixed_case(SVG_ATTRIBUTE_NAMES, local) {
                    a.name = m;
                    continue;
                }
            }
            ElementNs::MathMl if *local == local_name!("definitionurl") => {
                a.name = LocalName::from("definitionURL");
                continue;
            }
            _ => {}
        }
        let adjusted = match &**local {
            "xlink:actuate" | "xlink:arcrole" | "xlink:href" | "xlink:role" | "xlink:show"
            | "xlink:title" | "xlink:type" => {
                Some((AttributeNs::XLink, LocalName::from(&local["xlink:".len()..])))
            }
            "xml:lang" | "xml:space" => {
                Some((AttributeNs::Xml, LocalName::from(&local["xml:".len()..])))
            }
            "xmlns:xlink" => Some((AttributeNs::XmlnsPrefixed, local_name!("xlink"))),
            _ => None,
        };
        if let Some((namespace, local)) = adjusted {
            a.ns = namespace;
            a.name = local;
        } else if *local == local_name!("xmlns") {
            a.ns = AttributeNs::Xmlns;
        }
    }
}

impl OwnTreeBuilder {
    /// `<svg>` or `<math>` in body, or any start tag in foreign content:
    /// the attributes adjusted, the element inserted in `ns`, and popped
    /// at once if self-closing.
    pub(super) fn insert_foreign_start(&mut self, mut tag: Tag, ns: ElementNs) {
        adjust_attributes(ns, &mut tag.attrs);
        let name = if ns == ElementNs::Svg { svg_tag_name(tag.name) } else { tag.name };
        self.insert_element(ns, name, &tag.attrs);
        self.sink.recycle(tag.attrs);
        if tag.self_closing {
            self.pop();
        }
    }

    /// §13.2.6.5 "the rules for parsing tokens in foreign content".
    pub(super) fn foreign_content(&mut self, token: Token) -> Result {
        match token {
            Token::NullCharacterToken => {
                self.insert_text("\u{FFFD}");
                DONE
            }
            Token::CharacterTokens(text) => {
                if self.frameset_ok && !text.bytes().all(is_space) {
                    self.frameset_ok = false;
                }
                self.insert_text(&text);
                DONE
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) | Token::ParseError | Token::EOFToken => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => {
                if breaks_out(&tag) {
                    self.pop_to_html_content();
                    return self.step(self.mode, Token::TagToken(tag));
                }
                let ns = self.current().map_or(ElementNs::Html, |e| e.ns);
                self.insert_foreign_start(tag, ns);
                DONE
            }
            Token::TagToken(tag) => {
                if matches!(tag.name, local_name!("br") | local_name!("p")) {
                    self.pop_to_html_content();
                    return self.step(self.mode, Token::TagToken(tag));
                }
                self.foreign_end_tag(tag)
            }
        }
    }

    /// Pops until the current node is an HTML element or an integration
    /// point.
    fn pop_to_html_content(&mut self) {
        while let Some(e) = self.current() {
            if e.ns == ElementNs::Html || e.has(class::MATHML_TEXT_POINT | class::HTML_POINT) {
                break;
            }
            self.pop();
        }
    }

    /// An end tag in foreign content: closes the nearest foreign element
    /// of that name (compared ignoring ASCII case), or is processed by the
    /// insertion mode once an HTML element is reached.
    fn foreign_end_tag(&mut self, tag: Tag) -> Result {
        let mut i = self.open.len();
        while i > 1 {
            i -= 1;
            let e = &self.open[i];
            if e.ns == ElementNs::Html {
                return self.step(self.mode, Token::TagToken(tag));
            }
            if e.name.eq_ignore_ascii_case(&tag.name) {
                self.open.truncate(i);
                return DONE;
            }
        }
        DONE
    }
}
