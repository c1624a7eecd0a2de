//! The aliases against two independent sources: the host C compiler's `sizeof` (a small C program
//! compiled and run here) and the platform ABIs as their C libraries document them.

use std::mem::size_of;
use std::path::PathBuf;
use std::process::Command;

/// `(name, size in bytes, signed)` of every alias the build script derives.
fn rust_side() -> Vec<(&'static str, usize, bool)> {
    macro_rules! row {
        ($($t:ident),*) => { vec![$((stringify!($t), size_of::<c99::$t>(), c99::$t::MIN != 0)),*] };
    }
    row!(
        int_fast8_t,
        int_fast16_t,
        int_fast32_t,
        int_fast64_t,
        int_least8_t,
        int_least16_t,
        int_least32_t,
        int_least64_t,
        intmax_t,
        intptr_t,
        uint_fast8_t,
        uint_fast16_t,
        uint_fast32_t,
        uint_fast64_t,
        uint_least8_t,
        uint_least16_t,
        uint_least32_t,
        uint_least64_t,
        uintmax_t,
        uintptr_t
    )
}

/// Compiles and runs a C program printing `name sizeof signed` for every alias. `None` when no
/// C compiler answers to `cc` (then the ABI table below still checks the aliases).
fn c_side() -> Option<Vec<(String, usize, bool)>> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c99-sizeof");
    std::fs::create_dir_all(&dir).ok()?;
    let mut src = String::from("#include <stdio.h>\n#include <stdint.h>\nint main(void) {\n");
    for (name, _, _) in rust_side() {
        src.push_str(&format!(
            "  printf(\"{name} %u %d\\n\", (unsigned)sizeof({name}), ({name})-1 < ({name})0);\n"
        ));
    }
    src.push_str("  return 0;\n}\n");
    let c = dir.join("sizeof.c");
    let exe = dir.join("sizeof");
    std::fs::write(&c, src).ok()?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc).arg(&c).arg("-o").arg(&exe).status().ok()?;
    assert!(status.success(), "{cc} failed to compile the sizeof probe");
    let out = Command::new(&exe).output().expect("run the sizeof probe");
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[0].to_string(), f[1].parse().unwrap(), f[2] == "1")
            })
            .collect(),
    )
}

#[test]
fn aliases_match_the_c_compilers_sizeof() {
    let Some(c) = c_side() else {
        eprintln!("no C compiler `cc` on PATH: the sizeof comparison did not run");
        return;
    };
    let rust: Vec<(String, usize, bool)> =
        rust_side().into_iter().map(|(n, s, g)| (n.to_string(), s, g)).collect();
    assert_eq!(rust, c);
}

/// The five aliases softfloat-sys uses, as the platform's C library defines them.
#[test]
fn aliases_match_the_platform_abi() {
    use c99::*;
    let got = [
        size_of::<uint_fast8_t>(),
        size_of::<int_fast32_t>(),
        size_of::<uint_fast32_t>(),
        size_of::<int_fast64_t>(),
        size_of::<uint_fast64_t>(),
    ];
    // glibc <stdint.h>: on LP64 `int_fast16_t`/`int_fast32_t` are `long`; on ILP32 `int`.
    let expected: Option<[usize; 5]> = if cfg!(all(target_os = "linux", target_env = "gnu")) {
        Some(if cfg!(target_pointer_width = "64") { [1, 8, 8, 8, 8] } else { [1, 4, 4, 8, 8] })
    } else if cfg!(target_env = "musl") || cfg!(target_vendor = "apple") || cfg!(windows) {
        // musl, Apple's libc and the Windows CRTs: `int_fast32_t` is a 32-bit `int`.
        Some([1, 4, 4, 8, 8])
    } else {
        None
    };
    match expected {
        Some(e) => assert_eq!(got, e),
        None => eprintln!("no ABI table entry for this target; the sizeof test checks it"),
    }
    assert_eq!(size_of::<intptr_t>(), size_of::<usize>());
    assert_eq!(INT_FAST32_MAX as i128, int_fast32_t::MAX as i128);
}
