// Limits of the public API that both the code and the OpenAPI document state: one source for each.

/** Deepest nesting of arrays and objects a request body may have (the top-level value is level 1). */
export const JSON_MAX_DEPTH = 64;
