//! A tool's task policy, as the host declares it.

/// A tool's `execution.taskSupport`, as the host declares it in `tools/list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// No `execution.taskSupport` (treated as forbidden).
    #[default]
    Absent,
    /// `"forbidden"`: never as a task.
    Forbidden,
    /// `"optional"`: as a task or as a plain request.
    Optional,
    /// `"required"`: only as a task.
    Required,
    /// The host decides per call. 2025-11-25 peers see `"optional"` (the
    /// client decides there); in the tasks extension the call is forwarded
    /// and the host may turn it into a task with [`Engine::start_task`](crate::Engine::start_task).
    PerCall,
}

impl TaskSupport {
    /// Parses `"required"`, `"optional"`, `"forbidden"`, `"perCall"`; anything else is `Absent`.
    pub fn parse(value: &str) -> TaskSupport {
        match value {
            "required" => TaskSupport::Required,
            "optional" => TaskSupport::Optional,
            "forbidden" => TaskSupport::Forbidden,
            "perCall" => TaskSupport::PerCall,
            _ => TaskSupport::Absent,
        }
    }
}
