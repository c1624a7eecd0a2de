//! External implementations ("devices under test", DUTs), whatever their instruction set: the
//! child process, its threads, timeouts and process group ([`process`]). The messages each
//! instruction set exchanges with it are that instruction set's (`crate::sfpu::dut` speaks
//! `sfpu-dut/1`, `crate::amx::dut` speaks `amx-dut/1`).

pub mod process;
