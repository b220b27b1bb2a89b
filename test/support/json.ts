// A decoded JSON body as the tests read it: by path, with the assertions checking its shape.
// biome-ignore lint/suspicious/noExplicitAny: tests read decoded JSON by path and let expect() check it
export type JsonBody = any;

/** A response's JSON body, as the tests read it. */
export const jsonOf = async (res: Response): Promise<JsonBody> => await res.json();
