// What the Session API accepts (docs/api-rules.md#session-api): the parameters a launched session
// carries, the session ids a signal may name and the signal values. The gateway states the same
// numbers in its OpenAPI document (services/gateway/src/limits.ts, checked by its openapi test).
import { AppError, type FieldError } from '@switchboard/errors';

/** Parameters a launched session may carry, the longest name and the longest value (characters). */
export const SESSION_PARAMETERS_MAX = 50;
export const SESSION_PARAMETER_NAME_MAX = 64;
export const SESSION_PARAMETER_VALUE_MAX = 2048;
/** Longest signal value (characters). */
export const SIGNAL_VALUE_MAX = 256;
/** Longest session id a signal may name (the telephony core's ids may be up to 200 characters). */
export const SESSION_ID_MAX = 200;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern finds control characters to refuse them
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The parameters as given, or a 400 naming every one that breaks a limit. */
export function checkParameters(parameters: Record<string, string>): Record<string, string> {
  const names = Object.keys(parameters);
  if (names.length > SESSION_PARAMETERS_MAX) {
    throw AppError.invalid([
      { field: 'parameters', message: `at most ${SESSION_PARAMETERS_MAX} parameters; got ${names.length}` },
    ]);
  }
  const errors: FieldError[] = [];
  for (const name of names) {
    const value = parameters[name]!;
    if (name.length === 0 || name.length > SESSION_PARAMETER_NAME_MAX || CONTROL.test(name)) {
      errors.push({
        field: name.slice(0, SESSION_PARAMETER_NAME_MAX) || '(empty)',
        message: `a parameter name must be 1 to ${SESSION_PARAMETER_NAME_MAX} characters without control characters`,
      });
    } else if (value.length > SESSION_PARAMETER_VALUE_MAX) {
      errors.push({ field: name, message: `must be at most ${SESSION_PARAMETER_VALUE_MAX} characters` });
    } else if (value.includes('\u0000')) {
      errors.push({ field: name, message: 'must not contain NUL characters' });
    }
  }
  if (errors.length) throw AppError.invalid(errors);
  return parameters;
}

/** A session id as a signal names it: 1 to 200 visible ASCII characters; anything else is a 400. */
export function checkSessionId(id: string): string {
  if (id.length === 0 || id.length > SESSION_ID_MAX || !/^[\x21-\x7e]+$/.test(id)) {
    throw AppError.invalid([
      { field: 'sessionId', message: `must be a session id: 1 to ${SESSION_ID_MAX} visible ASCII characters` },
    ]);
  }
  return id;
}

/** A signal value: 1 to SIGNAL_VALUE_MAX characters without control characters. */
export function checkSignalValue(value: string): string {
  if (value.length === 0)
    throw AppError.invalid([{ field: 'value', message: 'is required: the signal to send, such as exit' }]);
  if (value.length > SIGNAL_VALUE_MAX || CONTROL.test(value)) {
    throw AppError.invalid([
      { field: 'value', message: `must be 1 to ${SIGNAL_VALUE_MAX} characters without control characters` },
    ]);
  }
  return value;
}
