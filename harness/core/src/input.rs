//! Reading what a user hands the harness (golden-vector files, state files, programs): only
//! regular files are read ([`read_regular`]: a FIFO, a device or a directory named `*.yaml`
//! would block or mislead), and YAML is refused before it is parsed when its flow collections
//! nest deeper than [`MAX_YAML_NESTING`] ([`check_yaml_nesting`], one linear pass; the YAML
//! parser takes quadratic time to reject a deep enough nesting, minutes for a 200 KB file).

use std::path::Path;

/// The deepest nesting of flow collections (`[...]`, `{...}`) a YAML text may have. The
/// harness's own files nest three deep at most; block collections (by indentation) need a line
/// per level, so their depth is bounded by the file's size and parsed in linear time.
pub const MAX_YAML_NESTING: usize = 64;

/// The contents of `path` as text, if it is a regular file (symbolic links followed), without
/// opening anything else; the error says why not (the caller names the file).
pub fn read_regular(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        let what =
            if meta.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
        return Err(format!("{what}; only regular files are read"));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// Refuses a YAML text whose flow collections nest deeper than [`MAX_YAML_NESTING`], naming the
/// line where the limit is passed. One pass over the text: brackets inside quoted scalars and
/// comments do not count.
pub fn check_yaml_nesting(text: &str) -> Result<(), String> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut chars = text.chars().peekable();
    // Whether the previous character allows a comment to start (`#` after a space or a line
    // start) or a quoted scalar to open.
    let mut after_space = true;
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                line += 1;
                after_space = true;
                continue;
            }
            '#' if after_space => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '\'' | '"' if after_space || depth > 0 => {
                // A quoted scalar, to its closing quote (`''` is an escaped single quote, `\"`
                // an escaped double quote); it may span lines.
                while let Some(q) = chars.next() {
                    match q {
                        '\n' => line += 1,
                        '\\' if c == '"' && chars.next() == Some('\n') => line += 1,
                        q if q == c => {
                            if c == '\'' && chars.peek() == Some(&'\'') {
                                chars.next();
                            } else {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            '[' | '{' => {
                depth += 1;
                if depth > MAX_YAML_NESTING {
                    return Err(format!(
                        "line {line}: collections nested more than {MAX_YAML_NESTING} deep; refused before \
                         parsing"
                    ));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        after_space = c.is_whitespace() || matches!(c, '[' | '{' | ',' | ':' | '-');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_nesting_is_refused_with_its_line() {
        let ok = format!("a: {}1{}\n", "[".repeat(MAX_YAML_NESTING), "]".repeat(MAX_YAML_NESTING));
        assert_eq!(check_yaml_nesting(&ok), Ok(()));
        let deep =
            format!("a: 1\nb: {}1{}\n", "[".repeat(MAX_YAML_NESTING + 1), "]".repeat(MAX_YAML_NESTING + 1));
        let e = check_yaml_nesting(&deep).unwrap_err();
        assert!(e.starts_with("line 2: collections nested more than 64 deep"), "{e}");
        // Brackets in quotes and comments are text.
        let quoted = format!("a: '{0}'\nb: \"{0}\\\"{0}\"\nc: x # {0}\nd: 'it''s {0}'\n", "[".repeat(100));
        assert_eq!(check_yaml_nesting(&quoted), Ok(()));
        // A quote inside a plain scalar opens nothing.
        let plain = format!("a: don't {}\n", "]".repeat(3));
        assert_eq!(check_yaml_nesting(&plain), Ok(()));
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = std::env::temp_dir().join(format!("harness-core-input-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.yaml")).unwrap();
        let e = read_regular(&dir.join("sub.yaml")).unwrap_err();
        assert!(e.contains("a directory; only regular files are read"), "{e}");
        std::fs::write(dir.join("f.yaml"), "a: 1\n").unwrap();
        assert_eq!(read_regular(&dir.join("f.yaml")), Ok("a: 1\n".to_string()));
        assert!(read_regular(&dir.join("missing.yaml")).unwrap_err().contains("No such file"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
