#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: builds the cargo-fuzz targets of fuzz/ (the same
# targets `cargo xtask fuzz` runs) and installs them into $OUT with their libFuzzer options and
# dictionaries. Inputs (set by the OSS-Fuzz builder; set them yourself to try it locally):
#   SRC        the folder holding the checkout as $SRC/sfpu
#   OUT        where the fuzzer binaries go
#   SANITIZER  address (ClusterFuzzLite's default), or none (a plain libFuzzer build, as
#              `cargo xtask fuzz` builds: every crate forbids `unsafe`)
# Tested by xtask/tests/clusterfuzzlite.rs, which runs this script with SRC and OUT in temporary
# folders.

: "${SRC:?SRC must name the folder holding the checkout as \$SRC/sfpu}"
: "${OUT:?OUT must name the folder for the fuzzer binaries}"
cd "$SRC/sfpu"

TARGETS="diff_stream decode vectors_load dut_protocol amx_diff"

case "${SANITIZER:-none}" in
  address|memory|thread) sanitizer="$SANITIZER" ;;
  *) sanitizer=none ;;
esac

# The OSS-Fuzz image's default toolchain is nightly; elsewhere use +nightly when installed and
# stable with RUSTC_BOOTSTRAP=1 otherwise (the same rule as `cargo xtask fuzz`).
cargo_fuzz=(cargo)
if [ -z "${RUSTUP_TOOLCHAIN:-}" ] && cargo +nightly --version >/dev/null 2>&1; then
  cargo_fuzz=(cargo +nightly)
elif ! rustc --version | grep -q nightly; then
  export RUSTC_BOOTSTRAP=1
fi

# Release build with debug assertions (overflow in a model is a crash) and without comparison
# tracing (every target reached as much coverage or more in the same time without it:
# fuzz/README.md, "Comparison tracing"), as `cargo xtask fuzz` builds (FUZZ_BUILD_FLAGS).
"${cargo_fuzz[@]}" fuzz build --fuzz-dir fuzz --target-dir fuzz/target -O -a --no-trace-compares -s "$sanitizer"

triple="$(rustc -vV | sed -n 's/^host: //p')"
mkdir -p "$OUT"
for t in $TARGETS; do
  cp "fuzz/target/$triple/release/$t" "$OUT/$t"
  # libFuzzer options, as `cargo xtask fuzz` passes them (xtask/src/fuzz/libfuzzer.rs, target_flags).
  case "$t" in
    diff_stream) max_len=8192 ;;
    decode) max_len=4 ;;
    amx_diff) max_len=5634 ;;
    *) max_len=16384 ;;
  esac
  {
    echo "[libfuzzer]"
    echo "max_len = $max_len"
    echo "timeout = 10"
    echo "rss_limit_mb = 2048"
    if [ -f "fuzz/dict/$t.dict" ]; then echo "dict = $t.dict"; fi
  } > "$OUT/$t.options"
  if [ -f "fuzz/dict/$t.dict" ]; then cp "fuzz/dict/$t.dict" "$OUT/$t.dict"; fi
done
