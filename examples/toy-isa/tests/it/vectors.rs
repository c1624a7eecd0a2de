//! The toy's golden vectors: the checked-in file is what the generator writes (`TOY_BLESS=1`
//! rewrites it), both models pass every vector, and every row of the matrix has vectors. Expected
//! values of a few vectors by hand.

use harness_core::isa::{Corpus, Isa, Strictness};
use harness_core::vectors::run_case;
use toy_isa::Toy;
use toy_isa::harness::{T4, ToyCorpus, generate, render};
use toy_isa::isa::{Instr, Op, State, encode, parse};

#[test]
fn the_checked_in_vectors_are_current() {
    let path = crate::here().join("vectors/toy.json");
    let want = render(&generate());
    if std::env::var_os("TOY_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write the vectors");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `TOY_BLESS=1 cargo test -p toy-isa` and commit it",
        path.display()
    );
}

#[test]
fn both_models_pass_every_vector_and_every_row_has_some() {
    let corpus = Toy::load(T4, Some(&crate::here().join("vectors"))).expect("the vectors load");
    assert!(corpus.len() > 50, "{} vectors", corpus.len());
    for i in 0..corpus.len() {
        let case = corpus.case(i, Strictness::Silicon).unwrap();
        for model in [Toy::reference(), Toy::fast()] {
            let r = run_case(model, T4, &case);
            assert!(
                r.status.reason().is_none() && !matches!(r.status, harness_core::check::Status::Fail(_)),
                "{}: {:?}",
                case.id,
                r.status
            );
        }
    }
    for cell in Toy::matrix(T4).iter().filter(|c| c.instruction != "streams") {
        assert!(
            (0..corpus.len()).any(|i| corpus.row(i).0 == cell.instruction),
            "no vector of {}",
            cell.instruction
        );
    }
}

#[test]
fn hand_checked_results() {
    let run = |s: &mut State, text: &str| toy_isa::reference::execute(s, parse(text).unwrap());
    let mut s = State::default();
    s.R[2] = [1, 2, 0xFFFF_FFFF, 0x8000_0000];
    s.R[3] = [3, 1, 1, 1];
    run(&mut s, "ADD r1, r2, r3");
    assert_eq!(s.R[1], [4, 3, 0, 0x8000_0001], "wrapping add");
    run(&mut s, "MIN r4, r2, r3");
    assert_eq!(s.R[4], [1, 1, 1, 1], "unsigned: 0xFFFFFFFF and 0x80000000 are large");
    run(&mut s, "ROT r5, r2, 1");
    assert_eq!(s.R[5], [2, 0xFFFF_FFFF, 0x8000_0000, 1], "lane l gets lane l + 1");
    run(&mut s, "SHL r6, r3, r3");
    assert_eq!(s.R[6], [24, 2, 2, 2]);
    run(&mut s, "LDI r7, 0xbeef");
    assert_eq!(s.R[7], [0xBEEF; 4]);
    // A reserved code changes nothing; bits 18..16 are ignored.
    let before = s;
    toy_isa::reference::execute(&mut s, 0xD000_0000 | 0x7 << 25);
    assert_eq!(s, before);
    let add = encode(&Instr { op: Op::ADD, rd: 1, ra: 2, rb: 3, imm: 0 });
    toy_isa::reference::execute(&mut s, add | 0x7 << 16);
    assert_eq!(s.R[1], [4, 3, 0, 0x8000_0001]);
    // The loader refuses a text that is not its word.
    let bad = render(&generate()).replacen("\"ADD r", "\"SUB r", 1);
    assert!(ToyCorpus::parse(&bad, "bad.json".into()).is_err());
}
