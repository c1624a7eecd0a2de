//! The text the renderers share: escaping for HTML and XML ([`escape`], [`escape_attr`],
//! [`sanitize`]) and for Markdown ([`text`], [`code`], [`cell_code`], [`block`]), and the words
//! and numbers every form writes the same way ([`human_ms`], [`percent`],
//! [`strictness_meaning`]).

use std::borrow::Cow;

/// What a strictness value means.
pub fn strictness_meaning(s: &str) -> &'static str {
    match s {
        "silicon" => "non-contractual locations compared",
        "architecture" => "non-contractual locations skipped",
        _ => "unknown strictness",
    }
}

/// A duration for people: `850 ms`, `12.3 s`, `3 min 12 s`.
pub fn human_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        let s = ms / 1000;
        if s < 3600 {
            format!("{} min {} s", s / 60, s % 60)
        } else {
            format!("{} h {} min", s / 3600, s % 3600 / 60)
        }
    }
}

/// `part` as a percentage of `whole`, one decimal; `-` when `whole` is zero.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 { "-".to_string() } else { format!("{:.1} %", part as f64 * 100.0 / whole as f64) }
}

/// `s` on one line (line breaks and tabs become spaces), sanitised.
pub fn one_line(s: &str) -> String {
    sanitize(s).chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).collect()
}

/// Inline text with Markdown's active punctuation backslash-escaped.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '$' | '#' | '!' | '{' | '}'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` as an inline code span outside tables (its fence outgrows any backtick run inside); `—`
/// for an empty string.
pub fn code(s: &str) -> String {
    code_span(&one_line(s))
}

/// An inline code span inside a table cell: `|` must be escaped even there.
pub fn cell_code(s: &str) -> String {
    code_span(&one_line(s)).replace('|', "\\|")
}

fn code_span(s: &str) -> String {
    if s.is_empty() {
        return "—".to_string();
    }
    let fence = "`".repeat(longest_run(s, '`') + 1);
    let pad = s.starts_with('`') || s.ends_with('`') || (s.starts_with(' ') && s.ends_with(' '));
    let sp = if pad { " " } else { "" };
    format!("{fence}{sp}{s}{sp}{fence}")
}

/// A fenced code block, ending with a line break.
pub fn block(s: &str, lang: &str) -> String {
    let body = sanitize(s);
    let fence = "`".repeat((longest_run(&body, '`') + 1).max(3));
    let nl = if body.ends_with('\n') || body.is_empty() { "" } else { "\n" };
    format!("{fence}{lang}\n{body}{nl}{fence}\n")
}

fn longest_run(s: &str, ch: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == ch { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// `s` for HTML text or a quoted attribute value: [`sanitize`]d, then `&`, `<`, `>`, `"` and `'`
/// written as character references.
pub fn escape(s: &str) -> Cow<'_, str> {
    let clean = sanitize(s);
    if !clean.contains(['&', '<', '>', '"', '\'']) {
        return clean;
    }
    let mut out = String::with_capacity(clean.len() + 16);
    for c in clean.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `s` for a quoted attribute value: [`escape`], with line feeds and tabs as character
/// references so that they survive attribute-value normalisation.
pub fn escape_attr(s: &str) -> String {
    escape(s).replace('\n', "&#10;").replace('\t', "&#9;")
}

/// `s` with the characters no rendering should carry replaced by visible ones: C0 control
/// characters other than tab and line feed become their Unicode control pictures (U+0000 `␀` to
/// U+001F `␟`, so ESC shows as `␛`), DEL becomes `␡`, C1 control characters and Unicode
/// noncharacters (U+FDD0 to U+FDEF, U+xFFFE, U+xFFFF) become U+FFFD `�`; a carriage return
/// followed by a line feed is dropped (CRLF becomes LF), a lone one becomes `␍`. The result is
/// valid in XML 1.0, HTML and Markdown.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| (c.is_control() && c != '\t' && c != '\n') || is_noncharacter(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\t' | '\n' => out.push(c),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            c if c.is_control() || is_noncharacter(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn is_noncharacter(c: char) -> bool {
    let u = c as u32;
    (0xfdd0..=0xfdef).contains(&u) || u & 0xfffe == 0xfffe
}
