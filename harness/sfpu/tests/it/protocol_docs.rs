//! `docs/dut-protocol.md` lists what a DUT's hello may declare from the ISA tables: the block
//! between its `BEGIN generated` and `END generated` lines is
//! [`harness_sfpu::declaration::protocol_reference`]. A stale block is rewritten in place and the
//! test fails, so that the change is committed (rust-analyzer's way with generated docs). The
//! block's contents are checked independently: each feature's example state has that feature and
//! no other, and each name the tables list is one a hello's `refuses` accepts.

use std::path::Path;

use harness_sfpu::declaration::{Declaration, protocol_reference};
use harness_sfpu::features::{Feature, state_features};
use sfpu_reference::isa::{Arch, Opcode};
use sfpu_reference::state::StateDoc;
use sfpu_reference::{ResetValues, State};

const BEGIN: &str = "<!-- BEGIN generated";
const END: &str = "<!-- END generated -->";

#[test]
fn the_declaration_reference_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/dut-protocol.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find(BEGIN).expect("a BEGIN generated line");
    let body = start + doc[start..].find('\n').expect("the BEGIN line ends") + 1;
    let end = body + doc[body..].find(END).expect("an END generated line");
    let want = protocol_reference();
    if doc[body..end] != want {
        let fresh = format!("{}{want}{}", &doc[..body], &doc[end..]);
        std::fs::write(&path, fresh).unwrap();
        panic!(
            "{} was stale: its generated block is rewritten; review and commit it\n--- was\n{}\n--- now\n{want}",
            path.display(),
            &doc[body..end]
        );
    }
}

/// Each example state has its feature and no other (`features::state_features`, which the
/// golden vectors' `requires` are computed from), over the reset state of the chip it names.
#[test]
fn every_feature_example_has_that_feature_alone() {
    for &f in Feature::ALL {
        let doc: StateDoc =
            serde_json::from_str(f.example()).unwrap_or_else(|e| panic!("{}: {e}: {}", f.id(), f.example()));
        let arch = doc.arch.unwrap_or(Arch::Blackhole);
        let mut state = State::reset(arch, &ResetValues::ZEROS);
        doc.apply_to(&mut state).unwrap_or_else(|e| panic!("{}: {e}", f.id()));
        assert_eq!(state_features(&state).to_vec(), [f], "{}: {}", f.id(), f.example());
    }
}

/// `...key=A..B` expanded (the last field from A to B), the other items as they are (the inverse of the table's compression,
/// written from its documented meaning).
fn expand(cell: &str) -> Vec<String> {
    cell.split(", ")
        .map(|item| item.trim_matches('`'))
        .flat_map(|item| match item.split_once("..") {
            Some((from, to)) => {
                let (key, a) = from.rsplit_once('=').unwrap();
                let (a, b): (u64, u64) = (a.parse().unwrap(), to.parse().unwrap());
                (a..=b).map(|n| format!("{key}={n}")).collect()
            }
            None => vec![item.to_string()],
        })
        .collect()
}

/// Every instruction and mode value the generated table lists is accepted by a hello's
/// `refuses`, and the table lists every (instruction, mode value) of both chips' matrices.
#[test]
fn every_listed_refusal_is_accepted_and_every_mode_is_listed() {
    let reference = protocol_reference();
    let mut listed: Vec<(String, String, String)> = Vec::new(); // (chip, instruction, mode)
    for line in reference.lines().filter(|l| l.starts_with("| `SFP")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let op = cells[0].trim_matches('`');
        for chip in cells[1].split(", ") {
            for mode in expand(cells[2]) {
                listed.push((chip.to_string(), op.to_string(), mode));
            }
        }
    }
    let names: Vec<String> = listed.iter().map(|(_, op, mode)| format!("{op}/{mode}")).collect();
    let ops: Vec<String> = listed.iter().map(|(_, op, _)| op.clone()).collect();
    Declaration::from_hello(Some(&[]), &names).expect("every listed mode value is a valid refusal");
    Declaration::from_hello(Some(&[]), &ops).expect("every listed instruction is a valid refusal");
    for arch in Arch::ALL {
        for &op in Opcode::ALL.iter().filter(|&&op| arch.has(op)) {
            for cell in <harness_sfpu::Sfpu as harness_core::isa::Isa>::matrix(arch)
                .into_iter()
                .filter(|c| c.instruction == op.name())
            {
                let key = (arch.to_string(), cell.instruction.clone(), cell.mode.clone());
                assert!(listed.contains(&key), "{key:?} is not listed");
            }
        }
    }
}
