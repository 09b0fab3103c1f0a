//! The task model: statuses, the task table, deadlines and list cursors.
//! Nothing here knows JSON-RPC.

pub(crate) mod cursor;
pub(crate) mod deadlines;
mod dialect;
pub(crate) mod fast_map;
mod policy;
pub(crate) mod quota;
mod status;
pub(crate) mod table;
mod task;

pub use dialect::Dialect;
pub use policy::TaskSupport;
pub use status::TaskStatus;
pub(crate) use task::{InputCapabilities, TaskView};
pub use task::{Outcome, RequestKind, Task};
