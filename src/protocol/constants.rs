//! The protocol's names and numbers that a host's glue needs too (error codes, versions, `_meta`
//! keys, how a policy is listed to a 2025-11-25 client), as one JSON object, so the JS adapters
//! read them from here instead of declaring them again.

#[cfg(test)]
use super::{
    extension::capability_json,
    extension::{
        CLIENT_CAPABILITIES_META, CLIENT_INFO_META, EXTENSION_ID, HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, PROTOCOL_VERSION_META,
        SUBSCRIPTION_ID_META,
    },
    jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR},
    legacy::listed_task_support,
    shapes::RELATED_TASK,
    Dialect,
};
#[cfg(test)]
use crate::core::{RequestKind, TaskSupport};

/// Unsupported protocol version (the 2026-07-28 base protocol).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// The TypeScript SDKs' code for a request whose connection closed before its answer.
pub const CONNECTION_CLOSED: i64 = -32000;
/// The TypeScript SDKs' code for a request not answered in time.
pub const REQUEST_TIMEOUT: i64 = -32001;
/// Resource not found (the SDKs send it as -32602 from a tool's throw).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// `_meta` key of a request's log level (the 2026-07-28 envelope).
pub const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key of a `server/discover` result's server name and version.
pub const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// The constants object:
/// `{ versions: { extension, legacy }, extensionId, extensionCapability, meta: { protocolVersion, clientCapabilities,
/// clientInfo, serverInfo, logLevel, subscriptionId, relatedTask }, errors: { parseError, invalidRequest,
/// methodNotFound, invalidParams, internalError, headerMismatch, missingCapability,
/// unsupportedProtocolVersion, connectionClosed, requestTimeout, resourceNotFound }, missingCapabilityData,
/// legacyTaskSupport: { [policy]: listed }, legacyTaskMethods: [method] }` (`legacyTaskMethods`: the requests
/// a 2025-11-25 requestor may turn into tasks).
///
/// Written out as one literal (a `format!` of the constants cost the wasm build half a KiB);
/// the tests below hold every value to the constant it copies.
///
/// ```
/// let c: serde_json::Value = serde_json::from_str(mcp_task_core::protocol::constants::JSON).unwrap();
/// assert_eq!(c["errors"]["missingCapability"], -32021);
/// assert_eq!(c["legacyTaskSupport"]["perCall"], "optional");
/// ```
pub const JSON: &str = concat!(
    r#"{"versions":{"extension":"2026-07-28","legacy":"2025-11-25"},"extensionId":"io.modelcontextprotocol/tasks","#,
    r#""extensionCapability":{"io.modelcontextprotocol/tasks":{}},"#,
    r#""meta":{"protocolVersion":"io.modelcontextprotocol/protocolVersion","clientCapabilities":"io.modelcontextprotocol/clientCapabilities","#,
    r#""clientInfo":"io.modelcontextprotocol/clientInfo","serverInfo":"io.modelcontextprotocol/serverInfo","#,
    r#""logLevel":"io.modelcontextprotocol/logLevel","subscriptionId":"io.modelcontextprotocol/subscriptionId","#,
    r#""relatedTask":"io.modelcontextprotocol/related-task"},"#,
    r#""errors":{"parseError":-32700,"invalidRequest":-32600,"methodNotFound":-32601,"invalidParams":-32602,"internalError":-32603,"#,
    r#""headerMismatch":-32020,"missingCapability":-32021,"unsupportedProtocolVersion":-32022,"connectionClosed":-32000,"requestTimeout":-32001,"resourceNotFound":-32002},"#,
    r#""missingCapabilityData":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},"#,
    r#""legacyTaskSupport":{"required":"required","optional":"optional","perCall":"optional","forbidden":"forbidden"},"#,
    r#""legacyTaskMethods":["tools/call","sampling/createMessage","elicitation/create"]}"#
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_the_constant_it_copies() {
        let c: serde_json::Value = serde_json::from_str(JSON).unwrap();
        assert_eq!(c["versions"]["extension"], Dialect::Extension.protocol_version());
        assert_eq!(c["versions"]["legacy"], Dialect::Legacy.protocol_version());
        assert_eq!(c["extensionId"], EXTENSION_ID);
        assert_eq!(c["extensionCapability"], serde_json::from_str::<serde_json::Value>(capability_json()).unwrap());
        let meta = [
            ("protocolVersion", PROTOCOL_VERSION_META),
            ("clientCapabilities", CLIENT_CAPABILITIES_META),
            ("clientInfo", CLIENT_INFO_META),
            ("serverInfo", SERVER_INFO_META),
            ("logLevel", LOG_LEVEL_META),
            ("subscriptionId", SUBSCRIPTION_ID_META),
            ("relatedTask", RELATED_TASK),
        ];
        for (key, value) in meta {
            assert_eq!(c["meta"][key], value, "meta.{key}");
        }
        assert_eq!(c["meta"].as_object().unwrap().len(), meta.len());
        let errors = [
            ("parseError", PARSE_ERROR),
            ("invalidRequest", INVALID_REQUEST),
            ("methodNotFound", METHOD_NOT_FOUND),
            ("invalidParams", INVALID_PARAMS),
            ("internalError", INTERNAL_ERROR),
            ("headerMismatch", HEADER_MISMATCH),
            ("missingCapability", MISSING_CLIENT_CAPABILITY),
            ("unsupportedProtocolVersion", UNSUPPORTED_PROTOCOL_VERSION),
            ("connectionClosed", CONNECTION_CLOSED),
            ("requestTimeout", REQUEST_TIMEOUT),
            ("resourceNotFound", RESOURCE_NOT_FOUND),
        ];
        for (key, value) in errors {
            assert_eq!(c["errors"][key], value, "errors.{key}");
        }
        assert_eq!(c["errors"].as_object().unwrap().len(), errors.len());
        assert_eq!(c["missingCapabilityData"]["requiredCapabilities"]["extensions"][EXTENSION_ID], serde_json::json!({}));
        for (key, policy) in [
            ("required", TaskSupport::Required),
            ("optional", TaskSupport::Optional),
            ("perCall", TaskSupport::PerCall),
            ("forbidden", TaskSupport::Forbidden),
        ] {
            assert_eq!(c["legacyTaskSupport"][key].as_str(), listed_task_support(policy), "legacyTaskSupport.{key}");
        }
        let methods: Vec<&str> = c["legacyTaskMethods"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let kinds: Vec<RequestKind> = methods.iter().map(|m| RequestKind::from_method(m)).collect();
        assert_eq!(kinds, [RequestKind::ToolsCall, RequestKind::SamplingCreateMessage, RequestKind::ElicitationCreate], "{methods:?}");
    }
}
