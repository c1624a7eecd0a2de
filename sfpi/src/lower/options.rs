//! The options of the lowering ([`LowerOptions`]), among them the bugs the tests can plant in
//! it ([`PlantedBug`]): what `select` reads and the callers of [`super::lower`] set.

/// A deliberately wrong lowering, for checking that the meaning-versus-machine tests catch
/// lowering bugs. Never set outside tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlantedBug {
    /// `v_else` without its SFPCOMPC: the else body runs in the last arm's lanes.
    ElseWithoutCompc,
    /// A predicated assignment copies every lane (SFPMOV `Mod1 = 2`) instead of the enabled
    /// ones.
    MergeIgnoresPredication,
    /// `>=` tested with SFPSETCC's `< 0` mode.
    GreaterEqualAsLess,
}

/// Options of the lowering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// A planted bug (tests only).
    pub planted: Option<PlantedBug>,
}
