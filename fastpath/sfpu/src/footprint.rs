//! What state an instruction may read and write, coarsely and conservatively, so that the machine
//! can run the several instructions of one SFPLOADMACRO cycle in place instead of on copies of
//! the state.
//!
//! The cycle model (`machine.rs`, point 2) says every instruction of a cycle reads the state as it
//! was at the start of the cycle and the writes are combined at the end. Running the instructions
//! one after the other on the live state gives exactly that result when no instruction writes a
//! location another one writes, and every instruction that reads a location runs before any
//! instruction that writes it. [`order`] finds such an order from the [`Footprint`]s, or says
//! there is none (then the machine falls back to the copies).
//!
//! A footprint is a set of coarse locations: each LReg as a whole, the predication state
//! (`LaneFlags`, `UseLaneFlagsForLaneEnable`, the flag stacks), `LaneConfig`, `LoadMacroConfig`,
//! the PRNG states, the RWCs, the rest of the addressing configuration, and Dst. It only has to be
//! a superset of what the instruction touches; too large a set only costs speed. Wormhole's
//! SFPSHFT2 `vc0` latch is not a location here: only SFPSHFT2 reads or writes it, and only the
//! round sub-unit executes SFPSHFT2, so at most one instruction of a cycle touches it. Whether it is
//! large enough is checked directly by `tests/it/footprint_sound.rs` (on random instructions, states
//! and SFPLOADMACRO overrides: everything an instruction changes is in its writes, and no location
//! outside its reads changes what it does), and indirectly by the differential tests (every
//! multi-instruction cycle of the SFPLOADMACRO streams runs this way and is compared with the
//! reference after every instruction).

use sfpu_reference::isa::Instr;

use crate::exec::{Ctx, backdoor_vd};
pub use crate::locations::{
    ADDR_CONFIG, DST, EVERYTHING, LANE_CONFIG, Locations, MACRO_CONFIG, PREDICATION, PRNG, RWC,
};

/// `LReg[0..8]`.
const GENERAL: Locations = 0xFF;

/// What one execution of an instruction may read and may write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Locations whose value at the start of the cycle the instruction may use.
    pub reads: Locations,
    /// Locations the instruction may change.
    pub writes: Locations,
}

#[inline(always)]
fn r(i: usize) -> Locations {
    1 << (i.min(16))
}

/// What SFPLOAD with destination `vd` may write among the LRegs: `VD`, and `VD + 4` when it
/// captures the Dst index (`VD < 4`, and `captures`: some lane has `ENABLE_DEST_INDEX` and
/// `CAPTURE_DEFAULT_DEST_INDEX`).
fn load_writes(vd: u32, captures: bool) -> Locations {
    let vd = vd as usize;
    r(vd) | if vd < 4 && captures { r(vd + 4) } else { 0 }
}

/// The footprint of `instr` executed as `cx` says, `regular` when the thread issued it (a regular
/// SFPLOADMACRO contributes its load part; its scheduling reads `LoadMacroConfig`).
///
/// `captures` says whether some lane has both `ENABLE_DEST_INDEX` and
/// `CAPTURE_DEFAULT_DEST_INDEX` at the start of the cycle, when an SFPLOAD with `VD < 4` also
/// writes `LReg[VD + 4]` (`SFPLOAD.md`). The start of the cycle is what counts: an SFPLOAD
/// reads `LaneConfig`, so in any order [`order`] gives it runs before an instruction that writes
/// `LaneConfig`. (Without it, the common software pipeline of one SFPLOADMACRO per cycle over
/// LReg[0..8] had no order: a load into `LReg[1]` seemed to write the `LReg[5]` that the store
/// of the same cycle reads, and every cycle ran on copies of the state.)
pub fn footprint(instr: &Instr, cx: &Ctx, regular: bool, captures: bool) -> Footprint {
    use Instr::*;
    // Lane enable (flags, ROW_MASK), the VD < 12 guard and the other LaneConfig bits: read by
    // every instruction but SFPNOP.
    let base = PREDICATION | LANE_CONFIG;
    // `VB = VD` / `VC = VD` implicit operands, and the overridden fields, all as candidates.
    let vb = |field: u32| r(cx.vb(field));
    let vc = |field: u32| r(cx.vc(field));
    let vd = |field: u32| r(cx.vd(field));
    let ivb = |vd_field: u32| r(cx.implicit_vb(vd_field));
    let ivc = |vd_field: u32| r(cx.implicit_vc(vd_field));
    let indirect = |mode: u32, d: Locations| if mode & 8 != 0 { GENERAL | r(7) | d } else { d };
    let (reads, writes) = match *instr {
        SFPNOP {} => (0, 0),
        SFPLOAD { VD, .. } => {
            let d = load_writes(VD.get(), captures);
            (base | d | DST | RWC | ADDR_CONFIG, d | RWC)
        }
        SFPLOADMACRO { VDLo, VDHi, .. } => {
            // The load part, then the scheduling, which reads LoadMacroConfig.
            let d = load_writes((VDHi.get() << 2) | VDLo.get(), captures);
            (base | d | DST | RWC | ADDR_CONFIG | MACRO_CONFIG, d | RWC)
        }
        SFPLOADI { VD, .. } => (base | vd(VD.get()), vd(VD.get())),
        SFPSTORE { VD, .. } => {
            // It reads Dst too: a write to some but not all columns of a row marked undefined is
            // undefined (`docs/spec/sfpu-blackhole.md#dst-undefined-row-partial-write`), so its
            // outcome depends on the rows' valid bits (`tests/it/footprint_sound.rs` found this).
            let d = vd(VD.get());
            if cx.scheduled {
                (base | d | ADDR_CONFIG | DST, DST)
            } else {
                (base | d | ADDR_CONFIG | RWC | DST, DST | RWC)
            }
        }
        SFPLUT { VD, Mod0 } => (base | 0xF | r(7) | vd(VD.get()), indirect(Mod0.get(), vd(VD.get()))),
        SFPLUTFP32 { VD, .. } => (base | 0xFF | vd(VD.get()), GENERAL | vd(VD.get())),
        SFPMAD { VA, VB, VC, VD, Mod1 }
        | SFPADD { VA, VB, VC, VD, Mod1 }
        | SFPMUL { VA, VB, VC, VD, Mod1 }
        | SFPMUL24 { VA, VB, VC, VD, Mod1 } => {
            let a = if Mod1.get() & 4 != 0 { 0x1FFFF } else { r(VA.idx()) };
            let d = indirect(Mod1.get(), vd(VD.get()));
            (base | a | vb(VB.get()) | vc(VC.get()) | r(7) | d, d)
        }
        SFPADDI { VD, Mod1, .. } | SFPMULI { VD, Mod1, .. } => {
            let d = indirect(Mod1.get(), vd(VD.get()));
            (base | ivc(VD.get()) | vc(VD.get()) | r(7) | d, d)
        }
        SFPDIVP2 { VC, VD, .. } | SFPEXMAN { VC, VD, .. } | SFPABS { VC, VD, .. } | SFPNOT { VC, VD } => {
            (base | vc(VC.get()) | vd(VD.get()), vd(VD.get()))
        }
        SFPEXEXP { VC, VD, .. } | SFPLZ { VC, VD, .. } => {
            (base | vc(VC.get()) | vd(VD.get()), vd(VD.get()) | PREDICATION)
        }
        SFPCAST { VC, VD, .. } => (base | vc(VC.get()) | vd(VD.get()) | PRNG, vd(VD.get()) | PRNG),
        SFPSETEXP { VC, VD, .. }
        | SFPSETMAN { VC, VD, .. }
        | SFPSETSGN { VC, VD, .. }
        | SFPXOR { VC, VD } => {
            (base | vc(VC.get()) | ivb(VD.get()) | vb(VD.get()) | vd(VD.get()), vd(VD.get()))
        }
        SFPSHFT { VC, VD, .. } => {
            (base | vc(VC.get()) | ivb(VD.get()) | vb(VD.get()) | vd(VD.get()), vd(VD.get()))
        }
        SFPIADD { VC, VD, .. } => {
            (base | vc(VC.get()) | ivb(VD.get()) | vb(VD.get()) | vd(VD.get()), vd(VD.get()) | PREDICATION)
        }
        SFPAND { VB, VC, VD, .. } | SFPOR { VB, VC, VD, .. } => {
            (base | vb(VB.get()) | vc(VC.get()) | vd(VD.get()), vd(VD.get()))
        }
        SFPARECIP { VB, VC, VD, .. } => (base | vb(VB.get()) | vc(VC.get()) | vd(VD.get()), vd(VD.get())),
        SFPSETCC { VC, .. } => (base | vc(VC.get()), PREDICATION),
        SFPENCC { .. } | SFPPUSHC { .. } | SFPPOPC { .. } | SFPCOMPC { .. } => (base, PREDICATION),
        SFPGT { VC, VD, .. } | SFPLE { VC, VD, .. } => {
            (base | vc(VC.get()) | ivb(VD.get()) | vb(VD.get()) | vd(VD.get()), vd(VD.get()) | PREDICATION)
        }
        SFPMOV { VC, VD, .. } => {
            (base | vc(VC.get()) | vd(VD.get()) | MACRO_CONFIG | PRNG | LANE_CONFIG, vd(VD.get()) | PRNG)
        }
        SFPCONFIG { .. } => (base | r(0) | MACRO_CONFIG, MACRO_CONFIG | LANE_CONFIG | 0x7800),
        SFPSWAP { VC, VD, .. } => {
            let t = GENERAL | vc(VC.get()) | vd(VD.get());
            (base | t, t)
        }
        SFPTRANSP { .. } => (base | GENERAL, GENERAL),
        SFPSHFT2 { Imm12, VC, VD, .. } => {
            let t = 0xF | vb(Imm12.get() & 15) | vc(VC.get()) | vd(VD.get());
            (base | t, 0xF | vd(VD.get()))
        }
        SFPSTOCHRND { VB, VC, VD, .. } => {
            (base | vb(VB.get()) | vc(VC.get()) | vd(VD.get()) | PRNG, vd(VD.get()) | PRNG)
        }
    };
    // A regular instruction whose VD field is 12 or more may be a backdoor load instead.
    let backdoor = if regular && backdoor_vd(instr).is_some_and(|v| v >= 12) { MACRO_CONFIG } else { 0 };
    Footprint { reads, writes: writes | backdoor }
}

/// An order in which running `items` one after the other on the live state gives the
/// start-of-cycle-reads, merged-writes result: indices into `items`, or `None` if there is none
/// (two footprints write a common location, or the read-before-write constraints form a cycle).
/// Prefers the given order where it is free to choose.
pub fn order(items: &[Footprint], out: &mut [usize]) -> Option<usize> {
    let n = items.len();
    if n > out.len() || n > 32 {
        return None;
    }
    let mut written = 0;
    for f in items {
        if f.writes & written != 0 {
            return None;
        }
        written |= f.writes;
    }
    // The given order where it works (no item writes what a later one reads), in one pass; the
    // search below would find the same order, at more cost.
    let mut later_reads = 0;
    if items.iter().rev().all(|f| {
        let free = f.writes & later_reads == 0;
        later_reads |= f.reads;
        free
    }) {
        for (k, o) in out.iter_mut().enumerate().take(n) {
            *o = k;
        }
        return Some(n);
    }
    // `waits_for[i]`: the other items that read something item `i` writes, which must run before
    // it. Then repeatedly take the first remaining item that waits for no remaining item.
    let mut waits_for = [0u64; 32];
    for (i, w) in waits_for.iter_mut().enumerate().take(n) {
        for (j, f) in items.iter().enumerate() {
            if j != i && items[i].writes & f.reads != 0 {
                *w |= 1 << j;
            }
        }
    }
    let mut remaining: u64 = (1u64 << n) - 1;
    let mut k = 0;
    while remaining != 0 {
        let next = (0..n).find(|&i| remaining >> i & 1 != 0 && waits_for[i] & remaining == 0)?;
        out[k] = next;
        k += 1;
        remaining &= !(1 << next);
    }
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(reads: Locations, writes: Locations) -> Footprint {
        Footprint { reads, writes }
    }

    #[test]
    fn independent_items_keep_their_order() {
        let items = [fp(1, 2), fp(4, 8), fp(16, 32)];
        let mut out = [0; 8];
        assert_eq!(order(&items, &mut out), Some(3));
        assert_eq!(&out[..3], &[0, 1, 2]);
    }

    #[test]
    fn a_reader_runs_before_the_writer() {
        // Item 0 writes LReg 3, which item 1 reads: item 1 must see the old value, so runs first.
        let items = [fp(0, 1 << 3), fp(1 << 3, 1 << 4)];
        let mut out = [0; 8];
        assert_eq!(order(&items, &mut out), Some(2));
        assert_eq!(&out[..2], &[1, 0]);
    }

    /// `SFPLOAD.md`: `LReg[VD + 4]` gets the Dst index only for `VD < 4` in lanes with
    /// `ENABLE_DEST_INDEX` and `CAPTURE_DEFAULT_DEST_INDEX`.
    #[test]
    fn a_load_writes_the_index_register_only_where_a_lane_captures() {
        use sfpu_reference::isa::{Arch, parse_instr};
        let at = |t: &str| parse_instr(Arch::Blackhole, t).expect("an instruction");
        let (load1, load5) = (at("TTI_SFPLOAD(1, 0, 0, 0)"), at("TTI_SFPLOAD(5, 0, 0, 0)"));
        let macro1 = at("TTI_SFPLOADMACRO(1, 0, 0, 0)");
        let cx = Ctx::REGULAR;
        for (i, regular) in [(&load1, true), (&macro1, true), (&load1, false)] {
            assert_eq!(footprint(i, &cx, regular, false).writes & 0x1_FFFF, 1 << 1, "{i:?}");
            assert_eq!(footprint(i, &cx, regular, true).writes & 0x1_FFFF, (1 << 1) | (1 << 5), "{i:?}");
        }
        assert_eq!(footprint(&load5, &cx, true, true).writes & 0x1_FFFF, 1 << 5);
    }

    #[test]
    fn common_writes_and_cycles_have_no_order() {
        let mut out = [0; 8];
        assert_eq!(order(&[fp(0, 1), fp(0, 1)], &mut out), None);
        // Each reads what the other writes (a swap through the cycle boundary).
        assert_eq!(order(&[fp(2, 1), fp(1, 2)], &mut out), None);
    }

    #[test]
    fn self_reads_are_fine() {
        let mut out = [0; 8];
        assert_eq!(order(&[fp(PRNG, PRNG), fp(1, 2)], &mut out), Some(2));
    }

    /// Every permutation of `0..n` in lexicographic order (Heap's algorithm would not keep the
    /// order): the candidates of [`order_by_search`].
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut all = Vec::new();
        for first in 0..n {
            for rest in permutations(n - 1) {
                let mut p = vec![first];
                p.extend(rest.into_iter().map(|i| if i >= first { i + 1 } else { i }));
                all.push(p);
            }
        }
        all
    }

    /// What [`order`] promises, found by trying every order: `None` if two items write a common
    /// location, or if in every order some item writes what a later item reads; otherwise the
    /// first order, in lexicographic order, in which none does (the given order where it is free
    /// to choose).
    fn order_by_search(items: &[Footprint]) -> Option<Vec<usize>> {
        for (i, a) in items.iter().enumerate() {
            if items[i + 1..].iter().any(|b| a.writes & b.writes != 0) {
                return None;
            }
        }
        permutations(items.len()).into_iter().find(|p| {
            p.iter()
                .enumerate()
                .all(|(k, &i)| p[k + 1..].iter().all(|&j| items[i].writes & items[j].reads == 0))
        })
    }

    proptest::proptest! {
        /// [`order`] against [`order_by_search`] on two to six items over eight locations. Of
        /// 20,000 sets drawn this way (counted outside the test), about 39% have no order, 29%
        /// need reordering and 32% run as given.
        #[test]
        fn order_is_the_first_order_that_works(
            raw in proptest::collection::vec((0u32..256, 0u32..256, 0u32..256), 2..=6),
        ) {
            let items: Vec<Footprint> = raw
                .iter()
                .enumerate()
                // Each item reads about a quarter of the locations and writes at most locations
                // `i % 4` and `i % 4 + 4`, so that sets with distinct writes are common.
                .map(|(i, &(r1, r2, writes))| fp(r1 & r2, writes & (0x11 << (i % 4))))
                .collect();
            let mut out = [0; 8];
            let got = order(&items, &mut out).map(|k| out[..k].to_vec());
            proptest::prop_assert_eq!(got, order_by_search(&items), "{:x?}", items);
        }
    }
}
