//! Names the JavaScript surface shares with the Rust: the keys of the
//! `TaskEngine` options, one list per level. The wasm layer refuses any other
//! key with these lists, and a test holds `pkg-template/index.d.ts` to them (and
//! to every [`HostError`](crate::HostError) code and
//! [`AuditAction`](crate::AuditAction) name), so the types cannot drift.

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
            "limits",
            "store",
            "tools",
        ],
    ),
    ("CapabilityOptions", &["list", "cancel", "toolsCall", "samplingCreateMessage", "elicitationCreate"]),
    ("TtlOptions", &["defaultMs", "maxMs", "allowUnlimited"]),
    (
        "LimitOptions",
        &[
            "maxTasksPerContext",
            "maxTasksTotal",
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
    ("StoreOptions", &["instanceId", "leaseMs", "cursorKey"]),
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
        ],
    ),
];

/// The keys of one options interface.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn option_keys(interface: &str) -> &'static [&'static str] {
    ENGINE_OPTION_KEYS.iter().find(|(name, _)| *name == interface).map_or(&[], |(_, keys)| keys)
}

#[cfg(test)]
mod tests {
    use super::ENGINE_OPTION_KEYS;
    use crate::{AuditAction, HostError, TaskStatus};
    use std::collections::BTreeSet;

    const DTS: &str = include_str!("../pkg-template/index.d.ts");

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
        ];
        let mut codes: BTreeSet<String> = errors.iter().map(|e| e.code().to_owned()).collect();
        // The SDK store's own refusal (crate::StoreError): a task with no stored result.
        codes.insert("no_result".to_owned());
        // Thrown by the JavaScript layer, not by a host call: bad options, a
        // freed object, a browser build used before init().
        for code in ["invalid_options", "freed", "not_initialized"] {
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
        ];
        assert_eq!(union("AuditAction"), actions.iter().map(|a| a.name().to_owned()).collect());
        let statuses = ["working", "input_required", "completed", "failed", "cancelled"];
        assert!(statuses.iter().all(|s| TaskStatus::parse(s).is_some()));
        assert_eq!(union("TaskStatus"), statuses.iter().map(|s| (*s).to_owned()).collect());
    }
}
