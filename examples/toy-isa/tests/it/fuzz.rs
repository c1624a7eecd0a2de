//! The core's differential fuzz oracle on the toy, for about a second of random inputs (a fixed
//! number of them, so a failure replays).

use harness_core::fuzz::diff_cases;
use harness_core::rng::Rng;
use toy_isa::Toy;

#[test]
fn random_inputs_find_no_divergence() {
    let mut rng = Rng::new(0xF022);
    for _ in 0..3000 {
        let len = rng.below(80) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.u32() as u8).collect();
        if let Err(e) = diff_cases::<Toy>(&data) {
            panic!("input {data:02x?}: {e}");
        }
    }
}
