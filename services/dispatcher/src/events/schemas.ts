// The event schemas live in @switchboard/events (packages/events), shared with the gateway, which
// publishes the JSON Schema of each notification's `data` at GET /v1/event-types.
export * from '@switchboard/events';
