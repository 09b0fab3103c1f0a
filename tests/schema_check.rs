//! The schema check used by every test really rejects wrong shapes.

mod common;
use common::Schema;
use serde_json::json;

/// `check` fails exactly when `errors` finds something (asked directly: wasm32 cannot catch a panic).
fn rejects(schema: &mut Schema, def: &str, value: serde_json::Value) {
    assert!(!schema.errors(def, &value).is_empty(), "{def} accepted {value}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_checker_catches_wrong_shapes() {
    let mut schema = Schema::load();
    let task = json!({"taskId":"t","status":"working","createdAt":"2025-11-25T10:30:00.000Z","lastUpdatedAt":"2025-11-25T10:30:00.000Z","ttl":1000});
    schema.check("Task", &task);
    let mut no_created = task.clone();
    no_created.as_object_mut().unwrap().remove("createdAt");
    rejects(&mut schema, "Task", no_created);
    rejects(&mut schema, "Task", json!({"taskId":"t","status":"running","createdAt":"x","lastUpdatedAt":"x","ttl":1}));
    rejects(&mut schema, "Task", json!({"taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":1.5}));
    rejects(&mut schema, "CreateTaskResult", json!({"taskId":"t"}));
    rejects(&mut schema, "JSONRPCErrorResponse", json!({"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}));
    rejects(&mut schema, "TaskStatusNotification", json!({"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t"}}));
}
