//! The instruction sets the command knows, in report order: the one place that names them (as
//! Cranelift's `isa::lookup`). A new instruction set is a crate implementing
//! [`harness_core::isa::Isa`] and one line here.

use harness_core::driver::{Driver, IsaDriver};

static SFPU: IsaDriver<harness_sfpu::Sfpu> = IsaDriver::NEW;
static AMX: IsaDriver<harness_amx::Amx> = IsaDriver::NEW;

/// Every instruction set, in report order (the first is the default of options that name one
/// instruction set's implementation, `--dut` and `run`).
pub fn registry() -> Vec<&'static dyn Driver> {
    vec![&SFPU, &AMX]
}
