//! The document's quirks mode from its DOCTYPE (WHATWG §13.2.6.4.1, "the
//! initial insertion mode": the public and system identifier tables).

use html5ever::tokenizer::Doctype;
use html5ever::tree_builder::QuirksMode;

/// Public identifiers that mean quirks mode, whole (ASCII case-insensitive).
const QUIRKY_PUBLIC_IDS: &[&str] =
    &["-//W3O//DTD W3 HTML Strict 3.0//EN//", "-/W3C/DTD HTML 4.0 Transitional/EN", "HTML"];

/// Public identifier prefixes that mean quirks mode.
const QUIRKY_PUBLIC_PREFIXES: &[&str] = &[
    "+//Silmaril//dtd html Pro v0r11 19970101//",
    "-//AS//DTD HTML 3.0 asWedit + extensions//",
    "-//AdvaSoft Ltd//DTD HTML 3.0 asWedit + extensions//",
    "-//IETF//DTD HTML 2.0 Level 1//",
    "-//IETF//DTD HTML 2.0 Level 2//",
    "-//IETF//DTD HTML 2.0 Strict Level 1//",
    "-//IETF//DTD HTML 2.0 Strict Level 2//",
    "-//IETF//DTD HTML 2.0 Strict//",
    "-//IETF//DTD HTML 2.0//",
    "-//IETF//DTD HTML 2.1E//",
    "-//IETF//DTD HTML 3.0//",
    "-//IETF//DTD HTML 3.2 Final//",
    "-//IETF//DTD HTML 3.2//",
    "-//IETF//DTD HTML 3//",
    "-//IETF//DTD HTML Level 0//",
    "-//IETF//DTD HTML Level 1//",
    "-//IETF//DTD HTML Level 2//",
    "-//IETF//DTD HTML Level 3//",
    "-//IETF//DTD HTML Strict Level 0//",
    "-//IETF//DTD HTML Strict Level 1//",
    "-//IETF//DTD HTML Strict Level 2//",
    "-//IETF//DTD HTML Strict Level 3//",
    "-//IETF//DTD HTML Strict//",
    "-//IETF//DTD HTML//",
    "-//Metrius//DTD Metrius Presentational//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 2.0 Tables//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 3.0 Tables//",
    "-//Netscape Comm. Corp.//DTD HTML//",
    "-//Netscape Comm. Corp.//DTD Strict HTML//",
    "-//O'Reilly and Associates//DTD HTML 2.0//",
    "-//O'Reilly and Associates//DTD HTML Extended 1.0//",
    "-//O'Reilly and Associates//DTD HTML Extended Relaxed 1.0//",
    "-//SQ//DTD HTML 2.0 HoTMetaL + extensions//",
    "-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//",
    "-//SoftQuad//DTD HoTMetaL PRO 4.0::19971010::extensions to HTML 4.0//",
    "-//Spyglass//DTD HTML 2.0 Extended//",
    "-//Sun Microsystems Corp.//DTD HotJava HTML//",
    "-//Sun Microsystems Corp.//DTD HotJava Strict HTML//",
    "-//W3C//DTD HTML 3 1995-03-24//",
    "-//W3C//DTD HTML 3.2 Draft//",
    "-//W3C//DTD HTML 3.2 Final//",
    "-//W3C//DTD HTML 3.2//",
    "-//W3C//DTD HTML 3.2S Draft//",
    "-//W3C//DTD HTML 4.0 Frameset//",
    "-//W3C//DTD HTML 4.0 Transitional//",
    "-//W3C//DTD HTML Experimental 19960712//",
    "-//W3C//DTD HTML Experimental 970421//",
    "-//W3C//DTD W3 HTML//",
    "-//W3O//DTD W3 HTML 3.0//",
    "-//WebTechs//DTD Mozilla HTML 2.0//",
    "-//WebTechs//DTD Mozilla HTML//",
];

/// The system identifier that means quirks mode.
const QUIRKY_SYSTEM_ID: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";

/// HTML 4.01 Frameset and Transitional: quirks without a system
/// identifier, limited quirks with one.
const HTML401_PREFIXES: &[&str] =
    &["-//W3C//DTD HTML 4.01 Frameset//", "-//W3C//DTD HTML 4.01 Transitional//"];

/// XHTML 1.0 Frameset and Transitional: limited quirks.
const XHTML_PREFIXES: &[&str] =
    &["-//W3C//DTD XHTML 1.0 Frameset//", "-//W3C//DTD XHTML 1.0 Transitional//"];

fn starts_with_any(id: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| id.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)))
}

/// The quirks mode a DOCTYPE token sets (not an `iframe srcdoc`
/// document).
pub(super) fn quirks_mode(doctype: &Doctype) -> QuirksMode {
    let public = doctype.public_id.as_deref();
    let system = doctype.system_id.as_deref();
    let quirky = doctype.force_quirks
        || doctype.name.as_deref() != Some("html")
        || public.is_some_and(|p| QUIRKY_PUBLIC_IDS.iter().any(|q| q.eq_ignore_ascii_case(p)))
        || system.is_some_and(|s| s.eq_ignore_ascii_case(QUIRKY_SYSTEM_ID))
        || public.is_some_and(|p| starts_with_any(p, QUIRKY_PUBLIC_PREFIXES))
        || (system.is_none() && public.is_some_and(|p| starts_with_any(p, HTML401_PREFIXES)));
    if quirky {
        return QuirksMode::Quirks;
    }
    let limited = public.is_some_and(|p| starts_with_any(p, XHTML_PREFIXES))
        || (system.is_some() && public.is_some_and(|p| starts_with_any(p, HTML401_PREFIXES)));
    if limited {
        QuirksMode::LimitedQuirks
    } else {
        QuirksMode::NoQuirks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5ever::tendril::StrTendril;

    fn doctype(name: &str, public: Option<&str>, system: Option<&str>) -> Doctype {
        Doctype {
            name: Some(StrTendril::from_slice(name)),
            public_id: public.map(StrTendril::from_slice),
            system_id: system.map(StrTendril::from_slice),
            force_quirks: false,
        }
    }

    #[test]
    fn doctypes_set_their_modes() {
        assert_eq!(quirks_mode(&doctype("html", None, None)), QuirksMode::NoQuirks);
        assert_eq!(quirks_mode(&doctype("htmlx", None, None)), QuirksMode::Quirks);
        let t401 = Some("-//W3C//DTD HTML 4.01 Transitional//EN");
        assert_eq!(quirks_mode(&doctype("html", t401, None)), QuirksMode::Quirks);
        let dtd = Some("http://www.w3.org/TR/html4/loose.dtd");
        assert_eq!(quirks_mode(&doctype("html", t401, dtd)), QuirksMode::LimitedQuirks);
        let ietf = Some("-//ietf//dtd html//en");
        assert_eq!(quirks_mode(&doctype("html", ietf, None)), QuirksMode::Quirks);
    }
}
