//! Request params both task dialects share: `params.taskId`.

use super::jsonrpc::{as_str, first_byte, member_values, present, string_value, RpcError};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

#[derive(Deserialize)]
struct TaskIdParams<'a> {
    #[serde(rename = "taskId", default, borrow, deserialize_with = "present")]
    task_id: Option<&'a RawValue>,
}

pub(crate) fn params_object<'a>(params: Option<&'a RawValue>, method: &str, required: bool) -> Result<Option<&'a RawValue>, RpcError> {
    match params {
        None if required => Err(RpcError::params(format!("Invalid params: {method} requires params.taskId (a string)"))),
        None => Ok(None),
        Some(p) if first_byte(p.get()) == Some(b'{') => Ok(Some(p)),
        Some(_) => Err(RpcError::params(format!("Invalid params: {method} params must be an object"))),
    }
}

/// `params.taskId` of `tasks/get`, `tasks/result` and `tasks/cancel`.
pub(crate) fn task_id_param<'a>(params: Option<&'a RawValue>, method: &str) -> Result<Cow<'a, str>, RpcError> {
    let missing = || RpcError::params(format!("Invalid params: {method} requires params.taskId (a string)"));
    let Some(p) = params_object(params, method, true)? else { return Err(missing()) };
    // `params` is a validated `RawValue`: a scan finds the member. A duplicate
    // `taskId` goes the serde way below, for serde's own error message.
    if let Some([found]) = member_values(p.get(), ["taskId"]) {
        let raw = found.ok_or_else(missing)?;
        return string_value(raw).ok_or_else(|| RpcError::params(format!("Invalid params: {method} params.taskId must be a string")));
    }
    let parsed: TaskIdParams<'_> =
        serde_json::from_str(p.get()).map_err(|e| RpcError::params(format!("Invalid params for {method}: {e}")))?;
    let raw = parsed.task_id.ok_or_else(missing)?;
    as_str(raw).ok_or_else(|| RpcError::params(format!("Invalid params: {method} params.taskId must be a string")))
}
