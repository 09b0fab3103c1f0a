//! Reads the `new TaskEngine(options)` object into a [`Config`], field by
//! field with `Reflect` (a serde deserializer here would double the size of
//! this layer in the wasm for a dozen fields).

use crate::js_names::option_keys;
use crate::{Capabilities, Config, RateLimit, TaskSupport};
use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

pub(super) struct Parsed {
    pub config: Config,
    pub now: Option<Function>,
    pub new_task_id: Option<Function>,
    pub tools: Vec<(String, TaskSupport)>,
}

/// One level of the options object, with the path for error messages.
struct Reader<'a> {
    obj: &'a JsValue,
    path: &'a str,
}

impl Reader<'_> {
    fn get(&self, key: &str) -> Option<JsValue> {
        let v = Reflect::get(self.obj, &key.into()).ok()?;
        (!v.is_undefined()).then_some(v)
    }

    /// Refuses keys this level does not know: a typo must not silently mean "default".
    fn only(&self, known: &[&str]) -> Result<(), String> {
        let object: &Object = self.obj.unchecked_ref();
        for key in Object::keys(object).iter() {
            let Some(key) = key.as_string() else { continue };
            if !known.contains(&key.as_str()) {
                return Err(format!("options.{}{key} is not an option (known here: {})", self.path, known.join(", ")));
            }
        }
        Ok(())
    }

    fn err(&self, key: &str, what: &str) -> String {
        format!("options.{}{key} must be {what}", self.path)
    }

    fn bool(&self, key: &str) -> Result<Option<bool>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_bool().map(Some).ok_or_else(|| self.err(key, "a boolean")),
        }
    }

    /// A non-negative integer; `Some(None)` for an explicit `null`.
    fn nullable_int(&self, key: &str) -> Result<Option<Option<u64>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(Some(None)),
            Some(v) => match v.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9.0e15 => Ok(Some(Some(n as u64))),
                _ => Err(self.err(key, "a non-negative integer")),
            },
        }
    }

    fn int(&self, key: &str) -> Result<Option<u64>, String> {
        match self.nullable_int(key)? {
            Some(None) => Err(self.err(key, "a non-negative integer")),
            other => Ok(other.flatten()),
        }
    }

    fn usize(&self, key: &str) -> Result<Option<usize>, String> {
        Ok(self.int(key)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
    }

    fn string(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => v.as_string().map(Some).ok_or_else(|| self.err(key, "a string")),
        }
    }

    fn function(&self, key: &str) -> Result<Option<Function>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => v.dyn_into::<Function>().map(Some).map_err(|_| self.err(key, "a function")),
        }
    }

    /// A nested object; `Some(None)` for an explicit `null`.
    fn object(&self, key: &str) -> Result<Option<Option<JsValue>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(Some(None)),
            Some(v) if v.is_object() => Ok(Some(Some(v))),
            Some(_) => Err(self.err(key, "an object")),
        }
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

/// `handle`'s third argument, read: what the transport knows beside the message and its context.
#[derive(Default)]
pub(super) struct InboundOptions {
    pub dialect: Option<crate::Dialect>,
    pub mcp_name: Option<String>,
    pub quota_key: Option<String>,
    /// `clientCapabilities` as JSON text.
    pub client_capabilities: Option<String>,
}

/// Reads `handle`'s (and `startTask`'s) third argument: `{ dialect?, mcpName?, quotaKey?,
/// clientCapabilities? }`; `null` or `undefined` for none.
pub(super) fn inbound(value: &JsValue) -> Result<InboundOptions, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(InboundOptions::default());
    }
    if !value.is_object() {
        return Err(
            "handle's third argument must be an object such as { dialect: \"2026-07-28\", mcpName: taskId, quotaKey: clientAddress }"
                .to_owned(),
        );
    }
    let r = Reader { obj: value, path: "" };
    let bad = |what: &str| format!("handle options.{what}");
    let dialect = match r.string("dialect").map_err(|_| bad("dialect must be a string"))?.as_deref() {
        None => None,
        Some(name) => Some(
            crate::Dialect::named(name).ok_or_else(|| bad(&format!("dialect must be \"2025-11-25\" or \"2026-07-28\", got \"{name}\"")))?,
        ),
    };
    let mcp_name = r.string("mcpName").map_err(|_| bad("mcpName must be a string"))?;
    let quota_key = r.string("quotaKey").map_err(|_| bad("quotaKey must be a string"))?;
    // The session's initialize capabilities (2025-11-25), as the SDK holds them: an object.
    let client_capabilities = match r.object("clientCapabilities").map_err(|_| bad("clientCapabilities must be an object"))? {
        Some(Some(caps)) => js_sys::JSON::stringify(&caps).ok().and_then(|s| s.as_string()),
        _ => None,
    };
    Ok(InboundOptions { dialect, mcp_name, quota_key, client_capabilities })
}

/// Reads options; unknown keys and wrong types are reported by name.
pub(super) fn parse(options: &JsValue) -> Result<Parsed, String> {
    let mut parsed = Parsed { config: Config::default(), now: None, new_task_id: None, tools: Vec::new() };
    if options.is_undefined() || options.is_null() {
        return Ok(parsed);
    }
    if !options.is_object() {
        return Err("options must be an object".to_owned());
    }
    let root = Reader { obj: options, path: "" };
    root.only(option_keys("TaskEngineOptions"))?;
    let config = &mut parsed.config;
    parsed.now = root.function("now")?;
    parsed.new_task_id = root.function("newTaskId")?;

    if let Some(Some(caps)) = root.object("capabilities")? {
        let r = Reader { obj: &caps, path: "capabilities." };
        r.only(option_keys("CapabilityOptions"))?;
        let d = Capabilities::default();
        config.capabilities = Capabilities {
            list: r.bool("list")?.unwrap_or(d.list),
            cancel: r.bool("cancel")?.unwrap_or(d.cancel),
            tools_call: r.bool("toolsCall")?.unwrap_or(d.tools_call),
            sampling_create_message: r.bool("samplingCreateMessage")?.unwrap_or(d.sampling_create_message),
            elicitation_create: r.bool("elicitationCreate")?.unwrap_or(d.elicitation_create),
        };
    }
    set(&mut config.context_binding, root.bool("contextBinding")?);
    if let Some(Some(ttl)) = root.object("ttl")? {
        let r = Reader { obj: &ttl, path: "ttl." };
        r.only(option_keys("TtlOptions"))?;
        set(&mut config.ttl.default_ms, r.int("defaultMs")?);
        set(&mut config.ttl.max_ms, r.int("maxMs")?);
        set(&mut config.ttl.allow_unlimited, r.bool("allowUnlimited")?);
    }
    set(&mut config.poll_interval_ms, root.nullable_int("pollIntervalMs")?);
    if let Some(size) = root.usize("pageSize")? {
        if size == 0 {
            return Err("options.pageSize must be at least 1".to_owned());
        }
        config.page_size = size;
    }
    config.model_immediate_response = root.string("modelImmediateResponse")?;
    set(&mut config.status_notifications, root.bool("statusNotifications")?);
    set(&mut config.audit, root.bool("audit")?);
    cursor_key(&root, config)?;
    if let Some(Some(limits)) = root.object("limits")? {
        let r = Reader { obj: &limits, path: "limits." };
        r.only(option_keys("LimitOptions"))?;
        let l = &mut config.limits;
        set(&mut l.max_running_tasks_per_key, r.usize("maxRunningTasksPerKey")?);
        set(&mut l.max_running_tasks_total, r.usize("maxRunningTasksTotal")?);
        set(&mut l.max_stored_bytes_per_key, r.usize("maxStoredBytesPerKey")?);
        set(&mut l.max_stored_bytes_total, r.usize("maxStoredBytesTotal")?);
        set(&mut l.max_result_bytes, r.usize("maxResultBytes")?);
        set(&mut l.max_queued_messages_per_task, r.usize("maxQueuedMessagesPerTask")?);
        set(&mut l.max_message_bytes, r.usize("maxMessageBytes")?);
        set(&mut l.max_json_depth, r.usize("maxJsonDepth")?);
        set(&mut l.max_waiters_per_task, r.usize("maxWaitersPerTask")?);
        set(&mut l.max_pending_outputs, r.usize("maxPendingOutputs")?);
        match r.object("rateLimit")? {
            None => {}
            Some(None) => l.rate_limit = None,
            Some(Some(rate)) => {
                let rr = Reader { obj: &rate, path: "limits.rateLimit." };
                rr.only(option_keys("RateLimitOptions"))?;
                let burst = rr.int("burst")?.ok_or_else(|| rr.err("burst", "a non-negative integer"))?;
                let per_second = rr.int("perSecond")?.ok_or_else(|| rr.err("perSecond", "a non-negative integer"))?;
                l.rate_limit =
                    Some(RateLimit { burst: burst.min(u32::MAX as u64) as u32, per_second: per_second.min(u32::MAX as u64) as u32 });
            }
        }
    }
    if let Some(Some(storage)) = root.object("storage")? {
        let r = Reader { obj: &storage, path: "storage." };
        r.only(option_keys("StorageOptions"))?;
        // Unless the host names it: a random instance id (16 hex digits), and a 30 s lease.
        let mut bytes = [0u8; 8];
        let _ = crate::random::fill(&mut bytes);
        let instance_id = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut mode = crate::StorageMode { instance_id, lease_ms: 30_000 };
        set(&mut mode.instance_id, r.string("instanceId")?);
        set(&mut mode.lease_ms, r.int("leaseMs")?);
        if mode.instance_id.is_empty() || mode.lease_ms == 0 {
            return Err("options.storage.instanceId must not be empty and options.storage.leaseMs must be positive".to_owned());
        }
        cursor_key(&r, &mut parsed.config)?;
        parsed.config.storage = Some(mode);
    }
    if let Some(Some(tools)) = root.object("tools")? {
        let r = Reader { obj: &tools, path: "tools" };
        let object: &Object = tools.unchecked_ref();
        for key in Object::keys(object).iter() {
            let Some(name) = key.as_string() else { continue };
            let support = r.get(&name).and_then(|v| v.as_string()).map(|s| TaskSupport::parse(&s));
            match support {
                Some(TaskSupport::Absent) | None => {
                    return Err(format!("options.tools[\"{name}\"] must be \"required\", \"optional\", \"perCall\" or \"forbidden\""))
                }
                Some(support) => parsed.tools.push((name, support)),
            }
        }
    }
    Ok(parsed)
}

/// 32 hexadecimal digits as 16 bytes.
/// `cursorKey` of the options object `r` reads (the top level, or `storage.`), when given.
fn cursor_key(r: &Reader<'_>, config: &mut Config) -> Result<(), String> {
    if let Some(hex) = r.string("cursorKey")? {
        let key = parse_key(&hex).ok_or(if r.path.is_empty() {
            "options.cursorKey must be 32 hexadecimal digits (16 bytes)"
        } else {
            "options.storage.cursorKey must be 32 hexadecimal digits (16 bytes)"
        })?;
        config.cursor_key = Some(key);
    }
    Ok(())
}

fn parse_key(hex: &str) -> Option<[u8; 16]> {
    if hex.len() != 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut key = [0u8; 16];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(key)
}
