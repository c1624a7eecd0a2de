//! The `diff_stream` divergence path without libFuzzer: a divergence is planted at run time with a
//! [`Mutation`] of the fast model's state (the test seam of `harness_sfpu::fuzz`), then found,
//! minimised, reported and triaged into a regressions file by [`append_regression`], the function
//! `cargo xtask fuzz --triage` uses.
//!
//! Every expected value comes from the planted mutation and hand reasoning about the program:
//! the instructions are simple integer operations whose results are worked out in the comments.
//! (The compile-time planted divergence of `cargo xtask fuzz --smoke --planted` checks the same
//! path end to end under libFuzzer.)

use std::path::Path;

use harness_sfpu::campaign::vector_yaml;
use harness_sfpu::fuzz::{
    Appended, Divergence, Mutation, append_regression, base_state, compare, compare_with, diff_stream,
    diff_stream_with, divergence_with, encode_stream_input, regression_shapes,
};
use harness_sfpu::taint::Locations;
use harness_sfpu::vectors::{
    Status, Strictness, Vector, VectorFile, expected_states, parse_file, run_vector,
};
use harness_sfpu::{FastModel, Reference};
use sfpu_fastpath::FastState;
use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Instr, parse_instr};
use sfpu_reference::state::LANES;

/// The planted divergence: after an SFPIADD whose `VD < 8`, bit 0 of lane 3 of `LReg[VD]` is
/// flipped in the fast model (whatever the lane's enable: the fast model simply gets it wrong).
fn flip_lane3_bit0(instr: &Instr, s: &mut FastState) {
    if let Instr::SFPIADD { VD, .. } = instr
        && VD.get() < 8
    {
        s.lreg[VD.get() as usize][3] ^= 1;
    }
}

/// The same, but only when lane 3 of the result is `0x1234_0007`: the divergence then needs the
/// instruction that puts `0x1234_0000` in the SFPIADD's source.
fn flip_lane3_bit0_of_0x12340007(instr: &Instr, s: &mut FastState) {
    if let Instr::SFPIADD { VD, .. } = instr
        && VD.get() < 8
        && s.lreg[VD.get() as usize][3] == 0x1234_0007
    {
        s.lreg[VD.get() as usize][3] ^= 1;
    }
}

/// A divergence of another failure shape: after any SFPIADD, `LaneFlags` of lane 3 is flipped.
fn flip_lane3_flag(instr: &Instr, s: &mut FastState) {
    if let Instr::SFPIADD { .. } = instr {
        s.lane_flags ^= 1 << 3;
    }
}

fn instr(text: &str) -> Instr {
    parse_instr(Arch::Blackhole, text).unwrap_or_else(|e| panic!("`{text}`: {e:?}"))
}

fn instrs(texts: &[&str]) -> Vec<Instr> {
    texts.iter().map(|t| instr(t)).collect()
}

/// The initial state: the fuzz base state (every lane enabled: `UseLaneFlagsForLaneEnable` clear,
/// no ROW_MASK in `LaneConfig`) with `LReg[1]` lane `l` = `0x1000 + l`.
fn state() -> State {
    let mut s = base_state(Arch::Blackhole);
    s.LReg[1] = std::array::from_fn(|l| 0x1000 + l as u32);
    s
}

/// Six instructions, only one of them an SFPIADD (index 2):
/// `L5 = ~L0`, `L6 = L1`, `L2 = L1 + 7` (ARG_IMM | CC_NONE: no flags), `L6 ^= L5`, a NOP,
/// `L7 = ~L2`.
const PROGRAM: [&str; 6] = [
    "TTI_SFPNOT(0, 0, 5, 0)",
    "TTI_SFPMOV(0, 1, 6, 0)",
    "TTI_SFPIADD(7, 1, 2, 5)",
    "TTI_SFPXOR(0, 5, 6, 0)",
    "TTI_SFPNOP",
    "TTI_SFPNOT(0, 2, 7, 0)",
];

/// The word of `TTI_SFPIADD(7, 1, 2, 5)` by hand: opcode 0x79 in [31:24], Imm12 7 in [23:12],
/// VC 1 in [11:8], VD 2 in [7:4], Mod1 5 in [3:0].
const SFPIADD_WORD: u32 = 0x7900_7125;

fn lanes(reg: u16, mask: u32) -> Locations {
    let mut l = Locations::default();
    l.LReg.0[reg as usize] = mask;
    l
}

/// The report's YAML regression vector, taken from the message text, in a regressions file.
fn vector_file_from_message(message: &str) -> VectorFile {
    vector_file_from_message_on(Arch::Blackhole, message)
}

/// [`vector_file_from_message`] for a divergence on `arch` (the report names that chip's file).
fn vector_file_from_message_on(arch: Arch, message: &str) -> VectorFile {
    let marker = format!("vectors/{arch}/regressions.yaml):\n");
    let at = message.find(&marker).unwrap_or_else(|| panic!("no regression vector in:\n{message}"));
    let yaml = &message[at + marker.len()..];
    let text = format!("format: sfpu-vectors/3\narch: {arch}\nfile: regressions\nvectors:\n{yaml}");
    parse_file(Path::new("regressions.yaml"), &text)
        .unwrap_or_else(|e| panic!("the report's vector does not load: {e:?}\n{text}"))
}

/// Whether every vector of `file` passes on `model` (a failure is printed).
fn passes(model: &dyn harness_sfpu::Model, file: &VectorFile) -> bool {
    let mut ok = true;
    for v in &file.vectors {
        let r = run_vector(model, file, v, Strictness::Silicon);
        if r.status != Status::Pass {
            eprintln!("{} on {}: {:?}", v.id, model.name(), r.status);
            ok = false;
        }
    }
    ok
}

/// The planted divergence is found at the SFPIADD, minimised to it alone, reported with the
/// stream, the lanes, both sides' bits and a vector that passes on the reference model.
#[test]
fn planted_divergence_is_found_minimised_and_reported() {
    let pre = state();
    let program = instrs(&PROGRAM);
    let flip: Mutation = flip_lane3_bit0;

    // Without the mutation the models agree; with it, the first difference is right after the
    // SFPIADD (index 2) and only in lane 3 of its destination: the reference computes
    // L2[3] = L1[3] + 7 = 0x1003 + 7 = 0x100a, the fast model ends with bit 0 flipped, 0x100b.
    assert_eq!(compare(&pre, &program), None);
    let first = compare_with(&pre, &program, Some(flip)).expect("the planted divergence is found");
    assert_eq!(first.index, 2);
    assert_eq!(first.differing, lanes(2, 1 << 3));
    assert_eq!(first.outcomes, None, "the mutation changes the state, not the outcome");
    assert_eq!(first.reference.LReg[2][3], 0x100a);
    assert_eq!(first.fast.LReg[2][3], 0x100b);

    // Through the bytes of a fuzz input, as the target sees it.
    let data = encode_stream_input(&pre, &program).expect("the state encodes");
    assert!(diff_stream(&data).is_ok(), "no divergence without the mutation");
    assert!(diff_stream_with(&data, "planted-test", None).is_ok());
    let d: Box<Divergence> =
        diff_stream_with(&data, "planted-test", Some(flip)).expect_err("the planted divergence is reported");

    // Minimised: the other five instructions do not matter (the divergence needs only an
    // SFPIADD with VD < 8), so the stream is the SFPIADD alone, and the shape is kept.
    assert_eq!(d.original_len, 6);
    assert_eq!(d.program, vec![instr("TTI_SFPIADD(7, 1, 2, 5)")]);
    assert_eq!(d.program[0].encode_blackhole(), SFPIADD_WORD);
    assert_eq!(d.found.index, 0);
    assert_eq!(d.instruction(), Some(&instr("TTI_SFPIADD(7, 1, 2, 5)")));
    assert_eq!(d.shape, "SFPIADD/mod1=5/LReg");
    // The diverging lanes are the lane the mutation touched, and nothing else differs.
    assert_eq!(d.found.differing, lanes(2, 1 << 3));
    assert_eq!(d.found.outcomes, None);
    // The state was minimised too: LReg[0..8] are not needed and are zeroed, and only the
    // diverging lane 3 stays enabled (UseLaneFlagsForLaneEnable everywhere, LaneFlags in lane 3).
    // So the reference computes L2[3] = 0 + 7 and the fast model 7 ^ 1.
    for reg in 0..8 {
        assert_eq!(d.pre.LReg[reg], [0; LANES], "LReg[{reg}] of the minimised state");
    }
    assert_eq!(d.pre.UseLaneFlagsForLaneEnable, [true; LANES]);
    assert_eq!(d.pre.LaneFlags, std::array::from_fn(|l| l == 3));
    assert_eq!(d.found.reference.LReg[2][3], 7);
    assert_eq!(d.found.fast.LReg[2][3], 6);

    // The message: where, the stream in TTI_ form with the diverging instruction marked, the
    // lanes, both sides' bits, and the regression vector.
    let message = d.to_string();
    for needle in [
        "diverges from the reference on blackhole at instruction 0 (SFPIADD mod1=5)",
        "shape: SFPIADD/mod1=5/LReg (stream minimised from 6 to 1 instructions)",
        ">  0  0x79007125  TTI_SFPIADD(7, 1, 2, 5)",
        "diverging lanes: 0x00000008",
        "LReg[2], lanes 0x00000008:",
        "lane  3: expected 0x00000007 (",
        "got 0x00000006 (",
        "- id: regressions/planted-test/fuzz-SFPIADD-mod1=5",
    ] {
        assert!(message.contains(needle), "`{needle}` is not in the report:\n{message}");
    }

    // The vector loads, is tagged, expects the reference's L2[3] = 7 with the other lanes
    // untouched (they are disabled), and passes on the reference (and on the unmutated fast
    // model, which agrees with it).
    let file = vector_file_from_message(&message);
    assert_eq!(file.vectors.len(), 1);
    let v = &file.vectors[0];
    assert_eq!(v.id, "regressions/planted-test/fuzz-SFPIADD-mod1=5");
    assert_eq!(v.mode.as_deref(), Some("mod1=5"));
    assert_eq!(v.tags, ["fuzz", "fuzz-shape:SFPIADD/mod1=5/LReg"]);
    assert_eq!(v.program.len(), 1);
    assert_eq!(v.program[0].word.0, SFPIADD_WORD);
    assert_eq!(v.program[0].text, "TTI_SFPIADD(7, 1, 2, 5)");
    let (vpre, vpost) = expected_states(v).expect("the vector's states");
    assert_eq!(vpre, d.pre);
    let want: [u32; LANES] = std::array::from_fn(|l| if l == 3 { 7 } else { 0 });
    assert_eq!(vpost.LReg[2], want);
    assert!(passes(&Reference, &file));
    assert!(passes(&FastModel, &file));
}

/// The same planted divergence on Wormhole B0: the input's first byte carries the chip (bit 6),
/// the divergence is found and minimised on Wormhole, the report names the chip and its
/// regressions file, and its vector (a Wormhole one) loads and passes on the reference.
#[test]
fn planted_divergence_is_found_on_wormhole() {
    let wh = |t: &str| parse_instr(Arch::Wormhole, t).unwrap_or_else(|e| panic!("`{t}`: {e:?}"));
    let mut pre = base_state(Arch::Wormhole);
    pre.LReg[1] = std::array::from_fn(|l| 0x1000 + l as u32);
    let program: Vec<Instr> = PROGRAM.iter().map(|t| wh(t)).collect();
    let flip: Mutation = flip_lane3_bit0;

    // L2[3] = L1[3] + 7 = 0x100a on the reference; the fast model flips bit 0.
    assert_eq!(compare(&pre, &program), None);
    let first = compare_with(&pre, &program, Some(flip)).expect("the planted divergence is found");
    assert_eq!((first.index, first.differing.clone()), (2, lanes(2, 1 << 3)));
    assert_eq!((first.reference.LReg[2][3], first.fast.LReg[2][3]), (0x100a, 0x100b));

    let data = encode_stream_input(&pre, &program).expect("the state encodes");
    assert_eq!(data[0] & 0x40, 0x40, "bit 6 of the first byte is the chip");
    assert!(diff_stream(&data).is_ok(), "no divergence without the mutation");
    let d =
        diff_stream_with(&data, "planted-wh", Some(flip)).expect_err("the planted divergence is reported");
    assert_eq!(d.arch(), Arch::Wormhole);
    assert_eq!(d.regressions_file(), "vectors/wormhole/regressions.yaml");
    assert_eq!(d.program, vec![wh("TTI_SFPIADD(7, 1, 2, 5)")]);
    assert_eq!(d.shape, "SFPIADD/mod1=5/LReg");
    assert_eq!((d.found.reference.LReg[2][3], d.found.fast.LReg[2][3]), (7, 6));
    let message = d.to_string();
    assert!(
        message.contains("diverges from the reference on wormhole at instruction 0 (SFPIADD mod1=5)"),
        "{message}"
    );
    let file = vector_file_from_message_on(Arch::Wormhole, &message);
    assert_eq!(file.arch, Arch::Wormhole);
    assert_eq!(file.vectors.len(), 1);
    let (vpre, vpost) = expected_states(&file.vectors[0]).expect("the vector's states");
    assert_eq!(vpre, d.pre);
    assert_eq!(vpost.LReg[2][3], 7);
    assert!(passes(&Reference, &file));
    assert!(passes(&FastModel, &file));
}

/// When the divergence needs an earlier instruction, minimisation keeps it (and only it).
#[test]
fn minimisation_keeps_what_the_divergence_needs() {
    let mut pre = state();
    pre.LReg[1] = std::array::from_fn(|l| 0x100 + l as u32);
    // SFPLOADI Mod0 0 (FLOATB) writes Imm16 << 16: L1 = 0x1234_0000 in every enabled lane (word
    // 0x71 << 24 | VD 1 << 20 | Mod0 0 << 16 | Imm16 0x1234 = 0x71101234), so
    // the SFPIADD (index 3) gives L2[3] = 0x1234_0007, the value the mutation waits for.
    let program = instrs(&[
        "TTI_SFPNOT(0, 0, 5, 0)",
        "TTI_SFPLOADI(1, 0, 0x1234)",
        "TTI_SFPMOV(0, 0, 6, 0)",
        "TTI_SFPIADD(7, 1, 2, 5)",
        "TTI_SFPNOP",
    ]);
    let m: Mutation = flip_lane3_bit0_of_0x12340007;
    // Without the SFPLOADI, L2[3] = 0x103 + 7: no divergence.
    let without_load = [program[0], program[2], program[3]];
    assert_eq!(compare_with(&pre, &without_load, Some(m)), None);

    let first = compare_with(&pre, &program, Some(m)).expect("found");
    assert_eq!(first.index, 3);
    assert_eq!(first.differing, lanes(2, 1 << 3));
    let d = divergence_with("needs-load", &pre, &program, first, Some(m));
    assert_eq!(d.program, instrs(&["TTI_SFPLOADI(1, 0, 0x1234)", "TTI_SFPIADD(7, 1, 2, 5)"]));
    assert_eq!(d.found.index, 1);
    assert_eq!(d.shape, "SFPIADD/mod1=5/LReg");
    assert_eq!(d.found.differing, lanes(2, 1 << 3));
    assert_eq!(d.found.reference.LReg[2][3], 0x1234_0007);
    assert_eq!(d.found.fast.LReg[2][3], 0x1234_0006);
    let message = d.to_string();
    assert!(message.contains("   0  0x71101234  TTI_SFPLOADI(1, 0, 0x1234)"), "{message}");
    assert!(message.contains(">  1  0x79007125  TTI_SFPIADD(7, 1, 2, 5)"), "{message}");
    assert!(passes(&Reference, &vector_file_from_message(&message)));
}

/// The divergences the triage tests append: `d1` the planted one; `d2` the same instruction, mode
/// and differing part with other registers and immediate; `d3` the same instruction and mode but
/// another differing part; `d4` another mode.
fn divergences() -> [Divergence; 4] {
    let run = |origin: &str, program: &[&str], m: Mutation| {
        let (pre, program) = (state(), instrs(program));
        let first = compare_with(&pre, &program, Some(m)).expect("diverges");
        divergence_with(origin, &pre, &program, first, Some(m))
    };
    [
        run("origin-a", &PROGRAM, flip_lane3_bit0),
        // L4 = L3 + sext(0x7ff): same shape, SFPIADD/mod1=5/LReg.
        run("origin-b", &["TTI_SFPNOP", "TTI_SFPIADD(0x7ff, 3, 4, 5)"], flip_lane3_bit0),
        run("origin-c", &PROGRAM, flip_lane3_flag),
        // Mod1 1: ARG_IMM with CC_LT0 (flags from the sign, the same on both sides).
        run("origin-d", &["TTI_SFPIADD(7, 1, 2, 1)"], flip_lane3_bit0),
    ]
}

fn regressions_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/blackhole/regressions.yaml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn added(result: Result<Appended, String>) -> (String, String) {
    match result {
        Ok(Appended::Added { id, text }) => (id, text),
        other => panic!("expected the vector to be added, got {other:?}"),
    }
}

/// Triage appends a new failure shape with its tags, reports a known shape as a duplicate, and
/// adds a different shape; the file loads after every step and its vectors pass on the reference.
#[test]
fn triage_appends_once_per_shape() {
    let path = Path::new("regressions.yaml");
    let [d1, d2, d3, d4] = divergences();
    assert_eq!(d1.shape, "SFPIADD/mod1=5/LReg");
    assert_eq!(d2.shape, "SFPIADD/mod1=5/LReg");
    assert_eq!(d2.program, vec![instr("TTI_SFPIADD(0x7ff, 3, 4, 5)")]);
    assert_eq!(d3.shape, "SFPIADD/mod1=5/LaneFlags");
    assert_eq!(d4.shape, "SFPIADD/mod1=1/LReg");

    let text = regressions_text();
    let before = parse_file(path, &text).expect("the checked-in file loads");
    let known = regression_shapes(&before);
    for s in [&d1.shape, &d3.shape, &d4.shape] {
        assert!(
            !known.contains_key(s),
            "the checked-in regressions file already has shape {s}: change the test"
        );
    }

    // 1. A new shape is appended after the existing text, with a comment and the three tags.
    let (id1, t1) = added(append_regression(&text, path, "crash-0001", &d1.shape, &d1.snippet()));
    assert_eq!(id1, "regressions/origin-a/fuzz-SFPIADD-mod1=5");
    assert!(t1.starts_with(&text), "the existing text is kept as it is");
    assert!(t1.contains(
        "# Found by `cargo xtask fuzz` (diff_stream, artifact crash-0001, shape SFPIADD/mod1=5/LReg)."
    ));
    let f1 = parse_file(path, &t1).expect("the file still loads");
    assert_eq!(f1.vectors.len(), before.vectors.len() + 1);
    let v1 = f1.vectors.iter().find(|v| v.id == id1).expect("the new vector");
    assert_eq!(v1.tags, ["fuzz", "fuzz-shape:SFPIADD/mod1=5/LReg", "fuzz-artifact:crash-0001"]);
    // Its expectation is the reference's L2[3] = 0 + 7 (see the first test).
    let (_, post) = expected_states(v1).unwrap();
    assert_eq!(post.LReg[2][3], 7);
    assert!(passes(&Reference, &f1));

    // 2. Another divergence of the same shape is a duplicate of the first: nothing is added.
    assert_eq!(
        append_regression(&t1, path, "crash-0002", &d2.shape, &d2.snippet()),
        Ok(Appended::Duplicate { id: id1.clone() })
    );

    // 3. Another shape (the same instruction and mode, another part) is added.
    let (id3, t3) = added(append_regression(&t1, path, "crash-0003", &d3.shape, &d3.snippet()));
    assert_eq!(id3, "regressions/origin-c/fuzz-SFPIADD-mod1=5");
    assert!(t3.starts_with(&t1));
    // 4. And another mode.
    let (id4, t4) = added(append_regression(&t3, path, "crash-0004", &d4.shape, &d4.snippet()));
    assert_eq!(id4, "regressions/origin-d/fuzz-SFPIADD-mod1=1");
    let f4 = parse_file(path, &t4).expect("the file still loads");
    assert_eq!(f4.vectors.len(), before.vectors.len() + 3);
    let shapes = regression_shapes(&f4);
    assert_eq!(shapes.len(), known.len() + 3);
    assert_eq!(shapes["SFPIADD/mod1=5/LReg"], id1);
    assert_eq!(shapes["SFPIADD/mod1=5/LaneFlags"], id3);
    assert_eq!(shapes["SFPIADD/mod1=1/LReg"], id4);
    let v3 = f4.vectors.iter().find(|v| v.id == id3).unwrap();
    assert!(v3.tags.contains(&"fuzz-artifact:crash-0003".to_string()), "{:?}", v3.tags);
    assert!(passes(&Reference, &f4));
    // A duplicate of any of them, later, is still found.
    assert_eq!(
        append_regression(&t4, path, "crash-0005", &d3.shape, &d3.snippet()),
        Ok(Appended::Duplicate { id: id3 })
    );
}

/// An empty `vectors: []` list becomes a proper list; tags missing from the YAML are added.
#[test]
fn triage_into_an_empty_file() {
    let path = Path::new("regressions.yaml");
    let [d1, ..] = divergences();
    let empty = "format: sfpu-vectors/3\narch: blackhole\nfile: regressions\nvectors: []\n";
    // The report's vector without its tags.
    let mut vectors: Vec<Vector> = serde_yaml::from_str(&d1.snippet()).expect("the snippet parses");
    assert_eq!(vectors.len(), 1);
    vectors[0].tags.clear();
    let yaml = vector_yaml(&vectors[0]);
    let (_, text) = added(append_regression(empty, path, "crash-0001", &d1.shape, &yaml));
    let file = parse_file(path, &text).expect("loads");
    assert_eq!(file.vectors.len(), 1);
    let tags = &file.vectors[0].tags;
    for t in ["fuzz", "fuzz-shape:SFPIADD/mod1=5/LReg", "fuzz-artifact:crash-0001"] {
        assert_eq!(tags.iter().filter(|x| *x == t).count(), 1, "{t} in {tags:?}");
    }
}

/// Bad input is refused with a clear error, and nothing is added.
#[test]
fn triage_refuses_what_would_not_load() {
    let path = Path::new("regressions.yaml");
    let [d1, ..] = divergences();
    let text = regressions_text();
    let e = append_regression(&text, path, "crash-x", "SFPIADD/x", "- id: [not a vector").unwrap_err();
    assert!(e.contains("does not parse"), "{e}");
    let e = append_regression(&text, path, "crash-x", "SFPIADD/x", "[]").unwrap_err();
    assert!(e.contains("does not parse"), "{e}");
    let e = append_regression("format: nope\n", path, "crash-x", &d1.shape, &d1.snippet()).unwrap_err();
    assert!(e.contains("does not load"), "{e}");
    // A format-1 or format-2 file loads, but the appended vector (with `requires`, and perhaps a
    // lane without a value in `post`) would not fit it.
    for old in ["sfpu-vectors/1", "sfpu-vectors/2"] {
        let text = format!("format: {old}\narch: blackhole\nfile: regressions\nvectors: []\n");
        assert!(parse_file(path, &text).is_ok());
        let e = append_regression(&text, path, "crash-x", &d1.shape, &d1.snippet()).unwrap_err();
        assert!(
            e.contains(&format!("is a {old} file")) && e.contains("Migrating from earlier formats"),
            "{e}"
        );
    }
    // The file stem must match its `file:` field.
    let e =
        append_regression(&text, Path::new("other.yaml"), "crash-x", &d1.shape, &d1.snippet()).unwrap_err();
    assert!(e.contains("does not load"), "{e}");
    // The same vector under another shape would duplicate its id.
    let (_, t1) = added(append_regression(&text, path, "crash-1", &d1.shape, &d1.snippet()));
    let e = append_regression(&t1, path, "crash-2", "SFPIADD/other", &d1.snippet()).unwrap_err();
    assert!(e.contains("would break") && e.contains("duplicate id"), "{e}");
}
