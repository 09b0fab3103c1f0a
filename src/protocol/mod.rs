//! Wire formats. `jsonrpc` reads and writes envelopes; `legacy` maps the
//! 2025-11-25 tasks surface onto the task model. A later dialect sits beside it.

pub mod jsonrpc;
pub mod legacy;
