//! `.clusterfuzzlite/build.sh`, the ClusterFuzzLite / OSS-Fuzz build script, run as the builder
//! runs it: `SRC` a temporary folder holding the checkout as `$SRC/sfpu` (a symbolic link to this
//! repository), `OUT` another. It must install every cargo-fuzz target of `fuzz/` with its
//! libFuzzer options (and dictionary where there is one), and the installed binaries must run an
//! input. Reported ignored when cargo-fuzz is not installed, except under
//! `SFPU_REQUIRE_CARGO_FUZZ=1` (which CI sets; see `main.rs`).

use std::process::Command;

use crate::{clean, root};

const TARGETS: [&str; 5] = ["diff_stream", "decode", "vectors_load", "dut_protocol", "amx_diff"];

pub fn build_sh_installs_every_target_into_out() {
    let tmp = std::env::temp_dir().join(format!("sfpu-cfl-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    std::fs::create_dir_all(&src).unwrap();
    std::os::unix::fs::symlink(root(), src.join("sfpu")).unwrap();

    let mut c = clean(Command::new("bash"));
    c.arg(root().join(".clusterfuzzlite/build.sh"))
        .env("SRC", &src)
        .env("OUT", &out)
        .env("SANITIZER", "none");
    let o = c.output().expect("run build.sh");
    assert!(
        o.status.success(),
        "build.sh failed ({:?}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );

    for t in TARGETS {
        let bin = out.join(t);
        assert!(bin.is_file(), "{} is missing", bin.display());
        let options = std::fs::read_to_string(out.join(format!("{t}.options"))).expect("the options file");
        assert!(options.starts_with("[libfuzzer]\n"), "{t}.options: {options}");
        assert!(options.contains("timeout = 10\n"), "{t}.options: {options}");
        let has_dict = root().join(format!("fuzz/dict/{t}.dict")).exists();
        assert_eq!(options.contains(&format!("dict = {t}.dict\n")), has_dict, "{t}.options: {options}");
        assert_eq!(out.join(format!("{t}.dict")).is_file(), has_dict, "{t}.dict");
    }
    let max_len = |t: &str| std::fs::read_to_string(out.join(format!("{t}.options"))).unwrap();
    assert!(max_len("diff_stream").contains("max_len = 8192\n"));
    assert!(max_len("decode").contains("max_len = 4\n"));

    // The installed binaries run inputs: an SFPMAD word for decode, and for diff_stream a
    // Wormhole input (first byte 0x40: no sections, chip bit set) with one raw SFPNOP word
    // (tag 0, then 0x8F000000 little-endian) — models that agree, so exit status 0.
    let inputs = tmp.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    for (t, bytes) in
        [("decode", vec![0x00, 0x00, 0x00, 0x84]), ("diff_stream", vec![0x40, 0, 0, 0, 0, 0x8F])]
    {
        let input = inputs.join(t);
        std::fs::write(&input, bytes).unwrap();
        let o = Command::new(out.join(t)).arg(&input).output().expect("run the fuzzer binary");
        assert!(
            o.status.success(),
            "{t} on its input: {:?}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stderr).contains("Executed"), "{t}: libFuzzer ran no input");
    }

    // diff_stream's environment variables (fuzz/fuzz_targets/diff_stream.rs): good values run the
    // input, any other value stops the binary with exit status 2 and a message naming it.
    let input = inputs.join("diff_stream");
    for (var, value, good) in [
        ("SFPU_FUZZ_MAX_STREAM", "16", true),
        ("SFPU_FUZZ_MAX_STREAM", "64", true),
        ("SFPU_FUZZ_MAX_STREAM", "0", false),
        ("SFPU_FUZZ_MAX_STREAM", "65", false),
        ("SFPU_FUZZ_MAX_STREAM", "sixteen", false),
        ("SFPU_FUZZ_CHIP", "wormhole", true),
        ("SFPU_FUZZ_CHIP", "bh", false),
    ] {
        let o = Command::new(out.join("diff_stream"))
            .arg(&input)
            .env(var, value)
            .output()
            .expect("run diff_stream");
        let stderr = String::from_utf8_lossy(&o.stderr);
        if good {
            assert!(
                o.status.success() && stderr.contains("Executed"),
                "{var}={value}: {:?}\n{stderr}",
                o.status
            );
        } else {
            assert_eq!(o.status.code(), Some(2), "{var}={value}: {stderr}");
            assert!(stderr.contains(&format!("{var}=\"{value}\": expected")), "{var}={value}: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
