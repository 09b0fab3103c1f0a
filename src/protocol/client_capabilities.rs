//! What a client declared it can answer, and what each server-to-client
//! request needs. mrtr.mdx: "Servers MUST NOT send an `inputRequests` that the
//! client has not declared support for in its capabilities"; the 2025-11-25
//! elicitation and sampling pages say the same of modes (`form`, `url`) and of
//! tool use in sampling (`sampling.tools`).

use super::json::Json;
use super::jsonrpc::{first_byte, member_values, string_value};
use crate::core::InputCapabilities;

/// Whether a raw JSON value is an object.
fn is_object(raw: Option<&str>) -> bool {
    raw.is_some_and(|v| first_byte(v) == Some(b'{'))
}

/// The input kinds a `ClientCapabilities` object (raw JSON) declares. Anything
/// but a readable object declares none. An `elicitation` object naming neither
/// `form` nor `url` stands for `form` (the 2025-11-25 rule for older clients).
pub(crate) fn declared(capabilities: &str) -> InputCapabilities {
    let mut caps = InputCapabilities::NONE;
    // The host's text may be anything; the scan below reads valid JSON only.
    if first_byte(capabilities) != Some(b'{') || Json::parse(capabilities).is_err() {
        return caps;
    }
    let Some([elicitation, sampling, roots]) = member_values(capabilities, ["elicitation", "sampling", "roots"]) else { return caps };
    if let Some(elicitation) = elicitation.filter(|e| is_object(Some(e))) {
        let [form, url] = member_values(elicitation, ["form", "url"]).unwrap_or_default();
        if is_object(form) || (form.is_none() && url.is_none()) {
            caps = caps.with(InputCapabilities::ELICITATION_FORM);
        }
        if is_object(url) {
            caps = caps.with(InputCapabilities::ELICITATION_URL);
        }
    }
    if let Some(sampling) = sampling.filter(|s| is_object(Some(s))) {
        caps = caps.with(InputCapabilities::SAMPLING);
        if is_object(member_values(sampling, ["tools"]).and_then(|[tools]| tools)) {
            caps = caps.with(InputCapabilities::SAMPLING_TOOLS);
        }
    }
    if is_object(roots) {
        caps = caps.with(InputCapabilities::ROOTS);
    }
    caps
}

/// What a request to the client needs declared, by its method and params (a
/// JSON object); `None` for a method no client capability governs.
pub(crate) fn needed(method: &str, params: &str) -> Option<InputCapabilities> {
    match method {
        "elicitation/create" => {
            let mode = member_values(params, ["mode"]).and_then(|[mode]| mode).and_then(string_value);
            Some(match mode.as_deref() {
                Some("url") => InputCapabilities::ELICITATION_URL,
                // `mode` defaults to "form".
                _ => InputCapabilities::ELICITATION_FORM,
            })
        }
        "sampling/createMessage" => {
            let [tools, tool_choice] = member_values(params, ["tools", "toolChoice"]).unwrap_or_default();
            Some(match tools.is_some() || tool_choice.is_some() {
                true => InputCapabilities::SAMPLING.with(InputCapabilities::SAMPLING_TOOLS),
                false => InputCapabilities::SAMPLING,
            })
        }
        "roots/list" => Some(InputCapabilities::ROOTS),
        _ => None,
    }
}

/// `data.requiredCapabilities` of a -32021 for a capability path:
/// `elicitation.url` is `{"elicitation":{"url":{}}}`.
pub(crate) fn required_json(path: &str) -> String {
    let mut out = String::from("{}");
    for name in path.rsplit('.') {
        out = format!("{{{}:{out}}}", super::jsonrpc::json_string(name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(caps: InputCapabilities) -> Vec<&'static str> {
        caps.names().collect()
    }

    #[test]
    fn declarations() {
        assert_eq!(names(declared(r#"{"extensions":{"io.modelcontextprotocol/tasks":{}}}"#)), Vec::<&str>::new());
        assert!(declared("{}").is_declared(), "an empty declaration still declares (nothing)");
        assert_eq!(names(declared(r#"{"elicitation":{}}"#)), ["elicitation.form"]);
        assert_eq!(names(declared(r#"{"elicitation":{"url":{}}}"#)), ["elicitation.url"]);
        assert_eq!(names(declared(r#"{"elicitation":{"form":{},"url":{}}}"#)), ["elicitation.form", "elicitation.url"]);
        assert_eq!(names(declared(r#"{"sampling":{"tools":{}},"roots":{"listChanged":true}}"#)), ["sampling", "sampling.tools", "roots"]);
        assert_eq!(names(declared(r#"{"sampling":true,"roots":null,"elicitation":[]}"#)), Vec::<&str>::new());
        assert_eq!(names(declared("[1]")), Vec::<&str>::new());
        assert_eq!(names(declared(r#"{"elicitation":{}"#)), Vec::<&str>::new(), "not JSON: nothing declared");
    }

    #[test]
    fn needs() {
        assert_eq!(needed("elicitation/create", r#"{"message":"?"}"#), Some(InputCapabilities::ELICITATION_FORM));
        assert_eq!(needed("elicitation/create", r#"{"mode":"url","url":"https://x"}"#), Some(InputCapabilities::ELICITATION_URL));
        let tools = needed("sampling/createMessage", r#"{"messages":[],"tools":[]}"#).unwrap();
        assert_eq!(declared(r#"{"sampling":{}}"#).missing(tools), Some("sampling.tools"));
        assert_eq!(needed("roots/list", "{}"), Some(InputCapabilities::ROOTS));
        assert_eq!(needed("x/custom", "{}"), None);
    }

    #[test]
    fn required_capabilities() {
        assert_eq!(required_json("elicitation.url"), r#"{"elicitation":{"url":{}}}"#);
        assert_eq!(required_json("roots"), r#"{"roots":{}}"#);
    }
}
