//! Dates as pages write them, normalised to ISO 8601 (RFC 3339 profile).
//!
//! A small parser of the formats met in page metadata, not a general date
//! library:
//!
//! - ISO 8601 calendar dates with an optional time and offset
//!   (`2024-05-01`, `2024-05-01T10:30:00.123Z`, `2024-05-01 10:30+0200`),
//!   also with `/` or `.` between year, month and day;
//! - day-first numeric dates with dots (`01.05.2024`, as in German and
//!   French pages);
//! - dates with an English month name in any order with the day and year
//!   (`May 1, 2024`, `1 May 2024`, RFC 2822's `Wed, 01 May 2024 10:30:00
//!   GMT`, C's `asctime` form `Fri Mar 13 21:30:09 EST 2015`).
//!
//! The result is `YYYY-MM-DD` when only the day is known,
//! `YYYY-MM-DDThh:mm:ss` with a time, and the offset after it (`Z` or
//! `±hh:mm`) when the page gives one. A named zone other than GMT/UTC is
//! ambiguous (`EST` is US Eastern or Australian Eastern) and is dropped:
//! the local time is kept without an offset. Anything else, and any
//! impossible date (`2023-02-29`), is `None`; no input panics.

/// A calendar date with an optional time of day and offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DateTime {
    year: u32,
    month: u32,
    day: u32,
    /// Hours, minutes, seconds.
    time: Option<(u32, u32, u32)>,
    /// Offset from UTC in minutes, when known.
    offset: Option<i32>,
}

/// Years accepted: pages do not date articles outside this range, and a
/// number outside it is more likely an id than a year.
const YEARS: std::ops::RangeInclusive<u32> = 1800..=2200;

/// `text` normalised to ISO 8601, or `None` when it is not a date this
/// parser knows.
///
/// ```
/// use gleaner::metadata::normalise_date;
/// assert_eq!(normalise_date("2024-05-01").as_deref(), Some("2024-05-01"));
/// assert_eq!(
///     normalise_date("Wed, 01 May 2024 10:30:00 GMT").as_deref(),
///     Some("2024-05-01T10:30:00Z")
/// );
/// assert_eq!(normalise_date("May 1, 2024").as_deref(), Some("2024-05-01"));
/// assert_eq!(normalise_date("yesterday"), None);
/// ```
pub fn normalise_date(text: &str) -> Option<String> {
    let text = text.trim();
    let parsed = iso(text).or_else(|| day_first(text)).or_else(|| with_month_name(text))?;
    Some(parsed.to_iso())
}

impl DateTime {
    fn to_iso(self) -> String {
        let mut out = format!("{:04}-{:02}-{:02}", self.year, self.month, self.day);
        if let Some((h, m, s)) = self.time {
            out.push_str(&format!("T{h:02}:{m:02}:{s:02}"));
            match self.offset {
                Some(0) => out.push('Z'),
                Some(o) => {
                    let sign = if o < 0 { '-' } else { '+' };
                    let o = o.unsigned_abs();
                    out.push_str(&format!("{sign}{:02}:{:02}", o / 60, o % 60));
                }
                None => {}
            }
        }
        out
    }

    fn checked(self) -> Option<DateTime> {
        let valid_day = (1..=days_in_month(self.year, self.month)?).contains(&self.day);
        let valid_offset = self.offset.is_none_or(|o| o.abs() < 24 * 60);
        (YEARS.contains(&self.year) && valid_day && valid_offset).then_some(self)
    }
}

fn days_in_month(year: u32, month: u32) -> Option<u32> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    Some(match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    })
}

/// A run of ASCII digits at the start of `s` of exactly `len` digits.
fn digits(s: &str, len: usize) -> Option<(u32, &str)> {
    let head = s.get(..len)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = &s[len..];
    if rest.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((head.parse().ok()?, rest))
}

/// A run of one or two ASCII digits at the start of `s`.
fn one_or_two(s: &str) -> Option<(u32, &str)> {
    digits(s, 2).or_else(|| digits(s, 1))
}

/// ISO 8601: `YYYY-MM-DD` (or `/`, `.`), then optionally `T` or a space,
/// `hh:mm[:ss[.fff]]` and `Z` or `±hh[:]mm`.
fn iso(s: &str) -> Option<DateTime> {
    let (year, rest) = digits(s, 4)?;
    let sep = rest.chars().next().filter(|c| matches!(c, '-' | '/' | '.'))?;
    let (month, rest) = one_or_two(&rest[1..])?;
    let rest = rest.strip_prefix(sep)?;
    let (day, rest) = one_or_two(rest)?;
    let mut date = DateTime { year, month, day, time: None, offset: None };
    if let Some(after) = rest.strip_prefix(['T', 't', ' ']) {
        if let Some((time, rest)) = clock(after) {
            date.time = Some(time);
            date.offset = offset(rest.trim_start());
        }
    }
    date.checked()
}

/// `hh:mm[:ss[.fraction]]` at the start of `s`.
fn clock(s: &str) -> Option<((u32, u32, u32), &str)> {
    let (h, rest) = one_or_two(s)?;
    let (m, mut rest) = digits(rest.strip_prefix(':')?, 2)?;
    let mut sec = 0;
    if let Some(after) = rest.strip_prefix(':') {
        let (s, after) = digits(after, 2)?;
        sec = s;
        rest = after;
        if let Some(fraction) = rest.strip_prefix(['.', ',']) {
            rest = fraction.trim_start_matches(|c: char| c.is_ascii_digit());
        }
    }
    (h < 24 && m < 60 && sec <= 60).then_some(((h, m, sec), rest))
}

/// `Z`, `GMT`, `UTC` or `±hh[:mm]` / `±hhmm` at the start of `s`, in
/// minutes east of UTC.
fn offset(s: &str) -> Option<i32> {
    let word: String = s.chars().take_while(char::is_ascii_alphabetic).collect();
    if matches!(word.to_ascii_uppercase().as_str(), "Z" | "GMT" | "UTC" | "UT") {
        let rest = &s[word.len()..];
        // `GMT+0200` is read as the offset after it.
        return Some(if rest.starts_with(['+', '-']) { numeric_offset(rest)? } else { 0 });
    }
    numeric_offset(s)
}

fn numeric_offset(s: &str) -> Option<i32> {
    let sign = match s.chars().next()? {
        '+' => 1,
        '-' | '−' => -1,
        _ => return None,
    };
    let rest = s.get(s.chars().next()?.len_utf8()..)?;
    let two = |s: &str| -> Option<u32> {
        let head = s.get(..2)?;
        head.bytes().all(|b| b.is_ascii_digit()).then(|| head.parse().ok())?
    };
    let h = two(rest)?;
    let rest = rest.get(2..)?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let m = two(rest).unwrap_or(0);
    Some(sign * (h as i32 * 60 + m as i32))
}

/// `DD.MM.YYYY` (day first, as written in much of Europe), optionally
/// followed by a time.
fn day_first(s: &str) -> Option<DateTime> {
    let (day, rest) = one_or_two(s)?;
    let (month, rest) = one_or_two(rest.strip_prefix('.')?)?;
    let (year, rest) = digits(rest.strip_prefix('.')?, 4)?;
    let mut date = DateTime { year, month, day, time: None, offset: None };
    let rest = rest.trim_start().trim_start_matches([',', '-', '|']).trim_start();
    if let Some((time, rest)) = clock(rest) {
        date.time = Some(time);
        date.offset = offset(rest.trim_start());
    }
    date.checked()
}

/// English month names and their common abbreviations.
pub(super) fn month_number(word: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let word = word.to_ascii_lowercase();
    let word = word.trim_end_matches('.');
    if word.len() < 3 {
        return None;
    }
    let found = MONTHS.iter().position(|m| {
        *m == word
            || (m.starts_with(word) && word.len() <= 4)
            || (word == "sept" && *m == "september")
    })?;
    u32::try_from(found + 1).ok()
}

/// A date with a month name: the month, a day (1–31, with an optional
/// English ordinal suffix) and a four-digit year in any order, with an
/// optional time and offset (RFC 2822 §3.3, C `asctime`).
fn with_month_name(s: &str) -> Option<DateTime> {
    let mut month = None;
    let mut day = None;
    let mut year = None;
    let mut time = None;
    let mut offset_minutes = None;
    let tokens = s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    for token in tokens.take(12) {
        if let Some((t, rest)) = clock(token) {
            if time.is_none() {
                time = Some(t);
                offset_minutes = offset(rest);
            }
            continue;
        }
        if time.is_some() && offset_minutes.is_none() {
            if let Some(o) = offset(token) {
                offset_minutes = Some(o);
                continue;
            }
        }
        let number = token.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h', '.']);
        if let Some((n, "")) = digits(number, 4) {
            year = year.or(Some(n));
        } else if let Some((n, "")) = one_or_two(number) {
            day = day.or(Some(n));
        } else if let Some(m) = month_number(token) {
            month = month.or(Some(m));
        }
    }
    DateTime { year: year?, month: month?, day: day?, time, offset: offset_minutes }.checked()
}

/// The first date written in running text (`Published Dec. 19, 2025 by
/// …`, `19 December 2025`, `2025-12-19`, `19.12.2025`, `12/19/2025`),
/// normalised as [`normalise_date`] does; `None` when the text holds
/// none. A numeric date with slashes is read only when it is not
/// ambiguous (one of its first two numbers is above 12, or both are
/// equal). At most [`MAX_SCANNED_TOKENS`] words are read.
pub(super) fn find_in_text(text: &str) -> Option<String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|t| !t.is_empty())
        .take(MAX_SCANNED_TOKENS)
        .collect();
    let at = |i: usize| tokens.get(i).copied();
    for (i, token) in tokens.iter().enumerate() {
        if let Some(found) = numeric_token(token) {
            return Some(found.to_iso());
        }
        let Some(month) = month_number(token) else { continue };
        // Month day year (`Dec 19 2025`) or day [of] month year (`19th of
        // December 2025`).
        let after = at(i + 1).and_then(day_number).zip(at(i + 2).and_then(year_number));
        let before = i.checked_sub(1).and_then(|b| {
            let of = at(b).is_some_and(|w| w.eq_ignore_ascii_case("of"));
            let day_at = if of { b.checked_sub(1)? } else { b };
            at(day_at).and_then(day_number).zip(at(i + 1).and_then(year_number))
        });
        for (day, year) in [before, after].into_iter().flatten() {
            let date = DateTime { year, month, day, time: None, offset: None };
            if let Some(date) = date.checked() {
                return Some(date.to_iso());
            }
        }
    }
    None
}

/// Words of running text read by [`find_in_text`], at most.
const MAX_SCANNED_TOKENS: usize = 400;

/// A whole token that is a numeric date: ISO (`2025-12-19`, with a time
/// when `T` joins it), day-first with dots (`19.12.2025`), or an
/// unambiguous slashed date (`12/19/2025`, `19/12/2025`).
fn numeric_token(token: &str) -> Option<DateTime> {
    if !token.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if let Some(date) = iso(token).or_else(|| day_first(token)) {
        return Some(date);
    }
    let (a, rest) = one_or_two(token)?;
    let (b, rest) = one_or_two(rest.strip_prefix('/')?)?;
    let (year, rest) = digits(rest.strip_prefix('/')?, 4)?;
    if !rest.is_empty() {
        return None;
    }
    let (month, day) = match (a > 12, b > 12) {
        (true, false) => (b, a),
        (false, true) => (a, b),
        _ if a == b => (a, b),
        _ => return None,
    };
    DateTime { year, month, day, time: None, offset: None }.checked()
}

/// A day of the month as written in text: `19`, `1st`, `22nd`, `3rd`, `9th`.
fn day_number(token: &str) -> Option<u32> {
    let number =
        ["st", "nd", "rd", "th"].iter().find_map(|s| token.strip_suffix(s)).unwrap_or(token);
    match one_or_two(number)? {
        (day, "") if (1..=31).contains(&day) => Some(day),
        _ => None,
    }
}

/// A four-digit year.
fn year_number(token: &str) -> Option<u32> {
    match digits(token, 4)? {
        (year, "") => Some(year),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::normalise_date as n;

    #[test]
    fn iso_dates_and_times() {
        assert_eq!(n("2024-05-01").as_deref(), Some("2024-05-01"));
        assert_eq!(n(" 2024/5/1 ").as_deref(), Some("2024-05-01"));
        assert_eq!(n("2015-04-08T12:46:00").as_deref(), Some("2015-04-08T12:46:00"));
        assert_eq!(n("2015-02-24T19:56:33.374Z").as_deref(), Some("2015-02-24T19:56:33Z"));
        assert_eq!(n("2024-05-01T10:30+02:00").as_deref(), Some("2024-05-01T10:30:00+02:00"));
        assert_eq!(n("2024-05-01 10:30:00 -0500").as_deref(), Some("2024-05-01T10:30:00-05:00"));
        // A time that is not one leaves the date.
        assert_eq!(n("2024-05-01Tnoon").as_deref(), Some("2024-05-01"));
    }

    #[test]
    fn day_first_and_month_names() {
        assert_eq!(n("08.04.2015").as_deref(), Some("2015-04-08"));
        assert_eq!(n("8.4.2015, 12:46").as_deref(), Some("2015-04-08T12:46:00"));
        assert_eq!(n("May 1, 2024").as_deref(), Some("2024-05-01"));
        assert_eq!(n("1st Sept. 2021").as_deref(), Some("2021-09-01"));
        assert_eq!(n("Wed, 01 May 2024 10:30:00 +0000").as_deref(), Some("2024-05-01T10:30:00Z"));
        // A named zone other than GMT/UTC is ambiguous: the local time stays.
        assert_eq!(n("Fri Mar 13 21:30:09 EST 2015").as_deref(), Some("2015-03-13T21:30:09"));
    }

    #[test]
    fn impossible_or_foreign_text_is_none() {
        for bad in [
            "",
            "yesterday",
            "2023-02-29",
            "2024-13-01",
            "2024-05-32",
            "12345-01-01",
            "0001-01-01",
            "May 2024",
            "2024-05-01T25:00",
            "٢٠٢٤-٠٥-٠١",
        ] {
            let got = n(bad);
            if bad == "2024-05-01T25:00" {
                // The impossible time is left out, the date is kept.
                assert_eq!(got.as_deref(), Some("2024-05-01"), "{bad}");
            } else {
                assert_eq!(got, None, "{bad}");
            }
        }
        assert_eq!(n("2024-02-29").as_deref(), Some("2024-02-29"));
    }

    #[test]
    fn issue_30_dates_in_running_text() {
        use super::find_in_text as f;
        assert_eq!(f("Published Dec. 19, 2025 by Ann").as_deref(), Some("2025-12-19"));
        assert_eq!(f("By Ann | 19th of December, 2025").as_deref(), Some("2025-12-19"));
        assert_eq!(f("Updated: 2025-12-19T08:00:00Z").as_deref(), Some("2025-12-19T08:00:00Z"));
        assert_eq!(f("Stand: 19.12.2025").as_deref(), Some("2025-12-19"));
        assert_eq!(f("posted 12/19/2025").as_deref(), Some("2025-12-19"));
        assert_eq!(f("posted 19/12/2025").as_deref(), Some("2025-12-19"));
        // Ambiguous, partial or impossible dates are not read.
        assert_eq!(f("posted 03/04/2025"), None);
        assert_eq!(f("You may 5 times in 2025"), None);
        assert_eq!(f("December 2025 roundup"), None);
        assert_eq!(f("Feb 30, 2025"), None);
        assert_eq!(f(""), None);
        assert_eq!(f("May"), None);
    }
}
