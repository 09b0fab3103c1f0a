//! Names the JavaScript surface shares with the Rust: the keys of the
//! `TaskEngine` options, one list per level, and the fields of every output kind.
//! The wasm layer refuses any other option key with these lists and describes its
//! outputs with the table; tests hold `pkg-template/types/index.d.ts` to both (and to
//! every [`HostError`](crate::HostError) code and [`AuditAction`](crate::AuditAction)
//! name), so the types cannot drift.

/// `(TypeScript interface, its keys)` of every level of `new TaskEngine(options)`
/// and of `new TaskRequestor(options)`.
pub(crate) const ENGINE_OPTION_KEYS: &[(&str, &[&str])] = &[
    (
        "TaskEngineOptions",
        &[
            "now",
            "newTaskId",
            "capabilities",
            "contextBinding",
            "ttl",
            "pollIntervalMs",
            "pageSize",
            "modelImmediateResponse",
            "statusNotifications",
            "audit",
            "cursorKey",
            "limits",
            "storage",
            "tools",
        ],
    ),
    ("CapabilityOptions", &["list", "cancel", "toolsCall", "samplingCreateMessage", "elicitationCreate"]),
    ("TtlOptions", &["defaultMs", "maxMs", "allowUnlimited"]),
    (
        "LimitOptions",
        &[
            "maxRunningTasksPerKey",
            "maxRunningTasksTotal",
            "maxStoredBytesPerKey",
            "maxStoredBytesTotal",
            "maxResultBytes",
            "maxQueuedMessagesPerTask",
            "maxMessageBytes",
            "maxJsonDepth",
            "maxWaitersPerTask",
            "maxPendingOutputs",
            "rateLimit",
        ],
    ),
    ("RateLimitOptions", &["burst", "perSecond"]),
    ("StorageOptions", &["instanceId", "leaseMs", "cursorKey"]),
    (
        "TaskRequestorOptions",
        &[
            "now",
            "pollFloorMs",
            "pollCeilingMs",
            "initialBackoffMs",
            "requestTimeoutMs",
            "resultTimeoutMs",
            "maxListPages",
            "requestIdPrefix",
            "dialect",
            "clientCapabilities",
            "clientInfo",
            "listen",
        ],
    ),
];

/// One output kind of `TextTaskEngine.pollOutput()`, as the wasm layer builds it.
/// `TaskEngine` (object mode, pkg-template/core/engine.js) reads this table through
/// `TextTaskEngine.outputShapes()` to parse the `json` fields and keep the exact
/// text of the `text` field; a test holds `pkg-template/types/index.d.ts` to it, and the
/// JS tests hold every emitted output to it.
pub(crate) struct OutputShape {
    pub kind: &'static str,
    /// Every field besides `kind`; a trailing `?` marks one that may be absent.
    pub fields: &'static [&'static str],
    /// Fields holding JSON text (or `null`), parsed in object mode.
    pub json: &'static [&'static str],
    /// The field whose exact text object mode also keeps, as `text`.
    pub text: Option<&'static str>,
}

const fn shape(
    kind: &'static str,
    fields: &'static [&'static str],
    json: &'static [&'static str],
    text: Option<&'static str>,
) -> OutputShape {
    OutputShape { kind, fields, json, text }
}

/// Every output of the engine (`TaskEngineOutput` / `TextTaskEngineOutput`).
#[cfg(any(feature = "receiver", test))]
pub(crate) const ENGINE_OUTPUTS: &[OutputShape] = &[
    shape("persist", &["taskId", "expectedVersion", "version", "record", "expiresAt"], &[], None),
    shape("send", &["context", "inReplyTo", "message"], &["inReplyTo", "message"], Some("message")),
    shape("execute", &["taskId", "context", "method", "request"], &["request"], Some("request")),
    shape("forward", &["context", "message"], &["message"], Some("message")),
    shape("cancelled", &["taskId", "context"], &[], None),
    shape("expired", &["taskId", "context", "wasTerminal"], &[], None),
    shape("inputResponse", &["taskId", "context", "requestId", "response"], &["requestId", "response"], Some("response")),
    shape("audit", &["action", "from?", "to?", "taskId", "context", "detail"], &[], None),
    shape("outputsDropped", &["count"], &[], None),
];

/// Every output of the requestor (`TaskRequestorOutput` in requestor.d.ts /
/// `TextTaskRequestorOutput` in index.d.ts), read by `TaskRequestor` (object mode,
/// pkg-template/client/requestor.js) through `TextTaskRequestor.outputShapes()`.
#[cfg(any(feature = "requestor", test))]
pub(crate) const REQUESTOR_OUTPUTS: &[OutputShape] = &[
    shape("send", &["message", "requestId", "mcpName"], &["message", "requestId"], Some("message")),
    shape("created", &["callId", "taskId", "task"], &["callId", "task"], None),
    shape("plainResponse", &["callId", "response"], &["callId", "response"], Some("response")),
    shape("callRefused", &["callId", "response"], &["callId", "response"], Some("response")),
    shape("status", &["callId", "taskId", "task"], &["callId", "task"], None),
    shape("inputRequest", &["callId", "taskId", "requestId", "request"], &["callId", "requestId", "request"], None),
    shape("progress", &["callId", "taskId", "notification"], &["callId", "notification"], None),
    shape("finished", &["callId", "taskId", "status", "response"], &["callId", "response"], Some("response")),
    shape("lost", &["callId", "taskId", "error"], &["callId", "error"], None),
    shape("retrying", &["callId", "taskId", "method", "response"], &["callId", "response"], None),
    shape("cancelAnswered", &["callId", "taskId", "response"], &["callId", "response"], None),
    shape("listed", &["tasks", "error"], &["tasks", "error"], None),
    shape("forward", &["message"], &["message"], Some("message")),
];

/// The keys of one options interface.
#[cfg(target_arch = "wasm32")]
pub(crate) fn option_keys(interface: &str) -> &'static [&'static str] {
    ENGINE_OPTION_KEYS.iter().find(|(name, _)| *name == interface).map_or(&[], |(_, keys)| keys)
}

#[cfg(test)]
mod tests {
    use super::{OutputShape, ENGINE_OPTION_KEYS, ENGINE_OUTPUTS, REQUESTOR_OUTPUTS};
    use crate::{AuditAction, HostError, TaskStatus};
    use std::collections::{BTreeMap, BTreeSet};

    const DTS: &str = include_str!("../pkg-template/types/index.d.ts");
    const REQUESTOR_DTS: &str = include_str!("../pkg-template/types/requestor.d.ts");

    /// `kind` → field → (type, optional) of `export type NAME = | { kind: 'a'; ... } | ...;`
    /// in `source`, comments left out.
    fn inline_union(source: &str, name: &str) -> BTreeMap<String, BTreeMap<String, (String, bool)>> {
        let start = source.find(&format!("export type {name} =")).unwrap_or_else(|| panic!("no type {name}"));
        let mut text = String::new();
        let mut rest = &source[start..];
        // Comments out, so that their braces and semicolons do not count.
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("/*") {
                rest = &after[after.find("*/").map_or(after.len(), |i| i + 2)..];
            } else if let Some(after) = rest.strip_prefix("//") {
                rest = &after[after.find('\n').unwrap_or(after.len())..];
            } else {
                let c = rest.chars().next().unwrap();
                text.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        let mut members = BTreeMap::new();
        let (mut depth, mut body) = (0, String::new());
        for c in text[text.find('=').unwrap() + 1..].chars() {
            match c {
                '{' => {
                    depth += 1;
                    if depth == 1 {
                        body.clear();
                        continue;
                    }
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        let fields: BTreeMap<String, (String, bool)> = body
                            .split([';', '\n'])
                            .map(str::trim)
                            .filter(|f| !f.is_empty())
                            .map(|f| {
                                let (key, ty) = f.split_once(':').unwrap_or_else(|| panic!("{name}: no type in {f}"));
                                let optional = key.ends_with('?');
                                (key.trim_end_matches('?').trim().to_owned(), (ty.trim().to_owned(), optional))
                            })
                            .collect();
                        let kind =
                            fields.get("kind").unwrap_or_else(|| panic!("{name}: a member without kind")).0.trim_matches('\'').to_owned();
                        members.insert(kind, fields);
                        continue;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            if depth >= 1 {
                body.push(c);
            }
        }
        members
    }

    /// Holds two inline unions (object mode in `object`, the text class in `text`) to a table of outputs.
    fn check_inline_outputs(shapes: &[OutputShape], (object_src, object_union): (&str, &str), (text_src, text_union): (&str, &str)) {
        let objects = inline_union(object_src, object_union);
        let texts = inline_union(text_src, text_union);
        let kinds: BTreeSet<&str> = shapes.iter().map(|s| s.kind).collect();
        assert_eq!(objects.keys().map(String::as_str).collect::<BTreeSet<_>>(), kinds, "{object_union} kinds vs the table");
        assert_eq!(texts.keys().map(String::as_str).collect::<BTreeSet<_>>(), kinds, "{text_union} kinds vs the table");
        for shape in shapes {
            let mut expected: BTreeSet<String> = shape.fields.iter().map(|f| f.trim_end_matches('?').to_owned()).collect();
            expected.insert("kind".to_owned());
            let text = &texts[shape.kind];
            assert_eq!(text.keys().cloned().collect::<BTreeSet<_>>(), expected, "{text_union} {} vs the fields emitted", shape.kind);
            let object = &objects[shape.kind];
            let mut object_keys = expected.clone();
            if let Some(t) = shape.text {
                assert!(shape.json.contains(&t), "{}: text field {t} is a JSON field", shape.kind);
                object_keys.insert("text".to_owned());
                assert_eq!(object["text"], ("string".to_owned(), false), "{object_union} {}.text", shape.kind);
            }
            assert_eq!(object.keys().cloned().collect::<BTreeSet<_>>(), object_keys, "{object_union} {} vs object mode", shape.kind);
            for f in shape.fields {
                let optional = f.ends_with('?');
                let f = f.trim_end_matches('?');
                assert_eq!(text[f].1, optional, "{text_union} {}.{f} optional", shape.kind);
                assert_eq!(object[f].1, optional, "{object_union} {}.{f} optional", shape.kind);
            }
            for f in shape.json {
                let text_type = &text[*f].0;
                assert!(
                    text_type == "string" || text_type == "string | null",
                    "{text_union} {}.{f} is JSON text, declared {text_type}",
                    shape.kind
                );
                let object_type = &object[*f].0;
                assert!(
                    !object_type.split('|').any(|t| t.trim() == "string"),
                    "{object_union} {}.{f} is parsed, declared {object_type}",
                    shape.kind
                );
            }
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn requestor_output_unions_match_the_outputs_table() {
        check_inline_outputs(REQUESTOR_OUTPUTS, (REQUESTOR_DTS, "TaskRequestorOutput"), (DTS, "TextTaskRequestorOutput"));
    }

    /// The body of `export interface NAME {` ... `}` (top-level braces only).
    fn interface_body(name: &str) -> &'static str {
        let start = DTS.find(&format!("export interface {name} ")).unwrap_or_else(|| panic!("no interface {name} in index.d.ts"));
        let open = start + DTS[start..].find('{').unwrap();
        let mut depth = 0;
        for (i, c) in DTS[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return &DTS[open + 1..open + i];
                    }
                }
                _ => {}
            }
        }
        panic!("unclosed interface {name}")
    }

    /// Property names declared at the top level of an interface body.
    fn keys(body: &str) -> BTreeSet<String> {
        let mut depth = 0;
        let mut out = BTreeSet::new();
        for line in body.lines() {
            let t = line.trim();
            if depth == 0 && !t.starts_with('*') && !t.starts_with("/*") && !t.starts_with("//") {
                if let Some(name) =
                    t.split(['?', ':']).next().filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
                {
                    if t[name.len()..].starts_with('?') || t[name.len()..].starts_with(':') {
                        out.insert(name.to_owned());
                    }
                }
            }
            depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
        }
        out
    }

    /// The string literals of `export type NAME = | 'a' | 'b';`.
    fn union(name: &str) -> BTreeSet<String> {
        let start = DTS.find(&format!("export type {name} =")).unwrap_or_else(|| panic!("no type {name} in index.d.ts"));
        let end = start + DTS[start..].find(';').unwrap();
        // Every other piece between quotes is a literal.
        DTS[start..end].split('\'').enumerate().filter(|(i, _)| i % 2 == 1).map(|(_, s)| s.to_owned()).collect()
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn option_interfaces_match_the_keys_the_engine_takes() {
        for (interface, expected) in ENGINE_OPTION_KEYS {
            let declared = keys(interface_body(interface));
            let expected: BTreeSet<String> = expected.iter().map(|k| (*k).to_owned()).collect();
            assert_eq!(declared, expected, "index.d.ts {interface} vs the keys the engine reads");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn error_codes_and_audit_actions_match() {
        let t = || "t".to_owned();
        let s = TaskStatus::Working;
        let errors = [
            HostError::UnknownTask { task_id: t() },
            HostError::TaskCancelled { task_id: t() },
            HostError::AlreadyTerminal { task_id: t(), status: s },
            HostError::IllegalTransition { task_id: t(), from: s, to: s },
            HostError::InvalidArgument { message: t() },
            HostError::LimitExceeded { message: t() },
            HostError::DuplicateId { task_id: t() },
            HostError::InvalidCursor,
            HostError::ListUnavailable { message: t() },
            HostError::DamagedRecord { task_id: t(), detail: t() },
            HostError::CapabilityNotDeclared { task_id: t(), method: t(), capability: "roots" },
        ];
        let mut codes: BTreeSet<String> = errors.iter().map(|e| e.code().to_owned()).collect();
        // The SDK store's own refusal (crate::StoreError): a task with no stored result.
        codes.insert("no_result".to_owned());
        // Thrown by the JavaScript layer, not by a host call: bad options, a
        // freed object, a browser build used before init(), a host clock that failed.
        for code in ["invalid_options", "freed", "not_initialized", "clock_failed"] {
            codes.insert(code.to_owned());
        }
        assert_eq!(union("TaskEngineErrorCode"), codes);
        let actions = [
            AuditAction::Created,
            AuditAction::Transitioned { from: s, to: s },
            AuditAction::Cancelled { from: s },
            AuditAction::ResultFetched,
            AuditAction::Expired,
            AuditAction::AccessRefused,
            AuditAction::LimitHit,
            AuditAction::RateLimited,
            AuditAction::RecordDamaged,
        ];
        assert_eq!(union("AuditAction"), actions.iter().map(|a| a.name().to_owned()).collect());
        let statuses = ["working", "input_required", "completed", "failed", "cancelled"];
        assert!(statuses.iter().all(|s| TaskStatus::parse(s).is_some()));
        assert_eq!(union("TaskStatus"), statuses.iter().map(|s| (*s).to_owned()).collect());
    }

    /// `TypeName` of the top-level property `name` of an interface body, and whether it is optional.
    fn field(body: &str, name: &str) -> Option<(String, bool)> {
        let mut depth = 0;
        for line in body.lines() {
            let t = line.trim();
            if depth == 0 {
                for (suffix, optional) in [("?:", true), (":", false)] {
                    if let Some(rest) = t.strip_prefix(name).and_then(|r| r.strip_prefix(suffix)) {
                        return Some((rest.trim().trim_end_matches(';').trim().to_owned(), optional));
                    }
                }
            }
            depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
        }
        None
    }

    /// The type names of `export type NAME = | A | B;`.
    fn union_members(name: &str) -> BTreeSet<String> {
        let start = DTS.find(&format!("export type {name} =")).unwrap_or_else(|| panic!("no type {name} in index.d.ts"));
        let end = start + DTS[start..].find(';').unwrap();
        let body = &DTS[start + DTS[start..].find('=').unwrap() + 1..end];
        body.split('|').map(|m| m.trim().to_owned()).filter(|m| !m.is_empty()).collect()
    }

    /// `SendOutput` for `send`.
    fn interface_of(kind: &str) -> String {
        let mut chars = kind.chars();
        let first = chars.next().unwrap().to_ascii_uppercase();
        format!("{first}{}Output", chars.as_str())
    }

    /// Holds index.d.ts to a table of outputs: each kind has an interface with exactly its
    /// fields (optional ones marked `?`). A kind with JSON fields has two: `Text<Kind>Output`
    /// (the text class: the fields are strings) and `<Kind>Output` (object mode: parsed, not
    /// `string`, plus `text: string` where the table keeps one). The two unions list them all.
    fn check_outputs(shapes: &[OutputShape], object_union: &str, text_union: &str) {
        let (mut objects, mut texts) = (BTreeSet::new(), BTreeSet::new());
        for shape in shapes {
            let name = interface_of(shape.kind);
            let mut expected: BTreeSet<String> = shape.fields.iter().map(|f| f.trim_end_matches('?').to_owned()).collect();
            expected.insert("kind".to_owned());
            let check_common = |interface: &str| {
                let body = interface_body(interface);
                assert_eq!(field(body, "kind"), Some((format!("'{}'", shape.kind), false)), "{interface}.kind");
                for f in shape.fields {
                    let optional = f.ends_with('?');
                    let declared = field(body, f.trim_end_matches('?')).unwrap_or_else(|| panic!("{interface}.{f} missing"));
                    assert_eq!(declared.1, optional, "{interface}.{f}: optional in the table and in index.d.ts alike");
                }
                body
            };
            if shape.json.is_empty() {
                assert!(shape.text.is_none(), "{}: a text field is one of the JSON fields", shape.kind);
                assert_eq!(keys(check_common(&name)), expected, "index.d.ts {name} vs the fields the engine emits");
                texts.insert(name.clone());
                objects.insert(name);
                continue;
            }
            let text_name = format!("Text{name}");
            let text_body = check_common(&text_name);
            assert_eq!(keys(text_body), expected, "index.d.ts {text_name} vs the fields the engine emits");
            let object_body = check_common(&name);
            let mut object_keys = expected.clone();
            if let Some(t) = shape.text {
                assert!(shape.json.contains(&t), "{}: text field {t} is a JSON field", shape.kind);
                object_keys.insert("text".to_owned());
                assert_eq!(field(object_body, "text"), Some(("string".to_owned(), false)), "{name}.text");
            }
            assert_eq!(keys(object_body), object_keys, "index.d.ts {name} vs the fields object mode emits");
            for f in shape.json {
                let (text_type, _) = field(text_body, f).unwrap();
                assert!(text_type == "string" || text_type == "string | null", "{text_name}.{f} is JSON text, declared {text_type}");
                let (object_type, _) = field(object_body, f).unwrap();
                assert!(!object_type.split('|').any(|t| t.trim() == "string"), "{name}.{f} is parsed, declared {object_type}");
            }
            texts.insert(text_name);
            objects.insert(name);
        }
        assert_eq!(union_members(object_union), objects, "{object_union}");
        assert_eq!(union_members(text_union), texts, "{text_union}");
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn engine_output_interfaces_match_the_outputs_table() {
        check_outputs(ENGINE_OUTPUTS, "TaskEngineOutput", "TextTaskEngineOutput");
    }
}
