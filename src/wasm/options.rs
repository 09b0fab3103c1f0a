//! Reads the `new TaskEngine(options)` object into a [`Config`].

use crate::{Capabilities, Config, TaskSupport};
use js_sys::{Function, Reflect};
use serde::Deserialize;
use std::collections::BTreeMap;
use wasm_bindgen::{JsCast, JsValue};

pub(super) struct Parsed {
    pub config: Config,
    pub now: Option<Function>,
    pub new_task_id: Option<Function>,
    pub tools: Vec<(String, TaskSupport)>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct CapabilityOptions {
    list: Option<bool>,
    cancel: Option<bool>,
    tools_call: Option<bool>,
    sampling_create_message: Option<bool>,
    elicitation_create: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct TtlOptions {
    default_ms: Option<u64>,
    max_ms: Option<u64>,
    allow_unlimited: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct LimitOptions {
    max_tasks_per_context: Option<usize>,
    max_tasks_total: Option<usize>,
    max_result_bytes: Option<usize>,
    max_queued_messages_per_task: Option<usize>,
    max_message_bytes: Option<usize>,
    max_json_depth: Option<usize>,
    max_waiters_per_task: Option<usize>,
    /// `null` turns rate limiting off.
    #[serde(deserialize_with = "nullable_rate")]
    rate_limit: Option<Option<RateOptions>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RateOptions {
    burst: u32,
    per_second: u32,
}

fn nullable_rate<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<RateOptions>>, D::Error> {
    Option::<RateOptions>::deserialize(d).map(Some)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Options {
    capabilities: Option<CapabilityOptions>,
    context_binding: Option<bool>,
    ttl: Option<TtlOptions>,
    /// `null` turns the suggestion off.
    #[serde(deserialize_with = "nullable")]
    poll_interval_ms: Option<Option<u64>>,
    page_size: Option<usize>,
    model_immediate_response: Option<String>,
    status_notifications: Option<bool>,
    audit: Option<bool>,
    limits: Option<LimitOptions>,
    tools: Option<BTreeMap<String, String>>,
}

fn nullable<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<u64>>, D::Error> {
    Option::<u64>::deserialize(d).map(Some)
}

fn function(options: &JsValue, key: &str) -> Result<Option<Function>, String> {
    let value = Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_into::<Function>().map(Some).map_err(|_| format!("options.{key} must be a function"))
}

/// Reads options; unknown keys are ignored, wrong types are reported by name.
pub(super) fn parse(options: &JsValue) -> Result<Parsed, String> {
    if options.is_undefined() || options.is_null() {
        return Ok(Parsed { config: Config::default(), now: None, new_task_id: None, tools: Vec::new() });
    }
    if !options.is_object() {
        return Err("options must be an object".to_owned());
    }
    let now = function(options, "now")?;
    let new_task_id = function(options, "newTaskId")?;
    // The functions are read above; hide them from serde.
    let plain = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
    let _ = Reflect::delete_property(&plain, &"now".into());
    let _ = Reflect::delete_property(&plain, &"newTaskId".into());
    let o: Options = serde_wasm_bindgen::from_value(plain.into()).map_err(|e| format!("Invalid options: {e}"))?;

    let mut config = Config::default();
    if let Some(c) = o.capabilities {
        let d = Capabilities::default();
        config.capabilities = Capabilities {
            list: c.list.unwrap_or(d.list),
            cancel: c.cancel.unwrap_or(d.cancel),
            tools_call: c.tools_call.unwrap_or(d.tools_call),
            sampling_create_message: c.sampling_create_message.unwrap_or(d.sampling_create_message),
            elicitation_create: c.elicitation_create.unwrap_or(d.elicitation_create),
        };
    }
    if let Some(b) = o.context_binding {
        config.context_binding = b;
    }
    if let Some(t) = o.ttl {
        config.ttl.default_ms = t.default_ms.unwrap_or(config.ttl.default_ms);
        config.ttl.max_ms = t.max_ms.unwrap_or(config.ttl.max_ms);
        config.ttl.allow_unlimited = t.allow_unlimited.unwrap_or(config.ttl.allow_unlimited);
    }
    if let Some(p) = o.poll_interval_ms {
        config.poll_interval_ms = p;
    }
    if let Some(size) = o.page_size {
        if size == 0 {
            return Err("options.pageSize must be at least 1".to_owned());
        }
        config.page_size = size;
    }
    config.model_immediate_response = o.model_immediate_response;
    if let Some(b) = o.status_notifications {
        config.status_notifications = b;
    }
    if let Some(b) = o.audit {
        config.audit = b;
    }
    if let Some(l) = o.limits {
        let d = &mut config.limits;
        d.max_tasks_per_context = l.max_tasks_per_context.unwrap_or(d.max_tasks_per_context);
        d.max_tasks_total = l.max_tasks_total.unwrap_or(d.max_tasks_total);
        d.max_result_bytes = l.max_result_bytes.unwrap_or(d.max_result_bytes);
        d.max_queued_messages_per_task = l.max_queued_messages_per_task.unwrap_or(d.max_queued_messages_per_task);
        d.max_message_bytes = l.max_message_bytes.unwrap_or(d.max_message_bytes);
        d.max_json_depth = l.max_json_depth.unwrap_or(d.max_json_depth);
        d.max_waiters_per_task = l.max_waiters_per_task.unwrap_or(d.max_waiters_per_task);
        if let Some(rate) = l.rate_limit {
            d.rate_limit = rate.map(|r| crate::RateLimit { burst: r.burst, per_second: r.per_second });
        }
    }
    let mut tools = Vec::new();
    for (name, support) in o.tools.unwrap_or_default() {
        let parsed = TaskSupport::parse(&support);
        if parsed == TaskSupport::Absent {
            return Err(format!("options.tools[\"{name}\"] must be \"required\", \"optional\" or \"forbidden\""));
        }
        tools.push((name, parsed));
    }
    Ok(Parsed { config, now, new_task_id, tools })
}
