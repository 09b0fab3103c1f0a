//! Request params both task dialects share: `params.taskId`.

use super::json::Json;
use super::jsonrpc::{as_str, first_byte, members, RpcError};
use std::borrow::Cow;

pub(crate) fn params_object<'a>(params: Option<Json<'a>>, method: &str, required: bool) -> Result<Option<Json<'a>>, RpcError> {
    match params {
        None if required => Err(RpcError::params(format!("Invalid params: {method} requires params.taskId (a string)"))),
        None => Ok(None),
        Some(p) if first_byte(p.get()) == Some(b'{') => Ok(Some(p)),
        Some(_) => Err(RpcError::params(format!("Invalid params: {method} params must be an object"))),
    }
}

/// `params.taskId` of `tasks/get`, `tasks/result` and `tasks/cancel`.
pub(crate) fn task_id_param<'a>(params: Option<Json<'a>>, method: &str) -> Result<Cow<'a, str>, RpcError> {
    let missing = || RpcError::params(format!("Invalid params: {method} requires params.taskId (a string)"));
    let Some(p) = params_object(params, method, true)? else { return Err(missing()) };
    let [task_id] = members(p, ["taskId"]).map_err(|e| RpcError::params(format!("Invalid params for {method}: {e}")))?;
    let raw = task_id.ok_or_else(missing)?;
    as_str(raw).ok_or_else(|| RpcError::params(format!("Invalid params: {method} params.taskId must be a string")))
}
