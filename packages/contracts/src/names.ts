// The characters no name a tenant gives (an application, a subscription, an API key) may hold:
// control characters, which break logs and terminals, and the bidirectional formatting characters,
// which make a name display as something else (a key named "\u202Elive" reads "evil" reversed in a
// list). Unpaired surrogates, which are no text, are refused with them.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern finds control characters to refuse them
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** ALM, LRM, RLM, the embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The message of a name refused for its characters. */
export const NAME_CHARACTERS_MESSAGE = 'must not contain control or bidirectional formatting characters';

/** True when a name holds a control or bidirectional formatting character, or an unpaired surrogate. */
export function hasUnsafeNameCharacters(name: string): boolean {
  return CONTROL.test(name) || BIDI.test(name) || LONE_SURROGATE.test(name);
}
