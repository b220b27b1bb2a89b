// Validates responses against the OpenAPI document the gateway serves, so every integration test
// that goes through `stack.request` also checks the documented contract.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApi } from '@switchboard/gateway/openapi';

type Doc = ReturnType<typeof buildOpenApi> & {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

const doc = buildOpenApi('http://localhost') as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
// zod's JSON Schema of a URL field says "iri" (an absolute URL, Unicode allowed), which ajv-formats lacks.
ajv.addFormat('iri', (v: string) => URL.canParse(v));
ajv.addSchema({ $id: 'openapi', components: doc.components });

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rewriteRefs(v),
      ]),
    );
  }
  return schema;
}

const compiled = new Map<string, ValidateFunction>();
function validator(key: string, schema: unknown): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile(rewriteRefs(schema) as object);
    compiled.set(key, v);
  }
  return v;
}

const problem = () => validator('Problem', { $ref: '#/components/schemas/Problem' });

/**
 * Returns a list of contract violations of one response (empty when it conforms): an undocumented
 * status, a wrong content type, or a body that does not match the schema.
 */
export function checkResponse(
  method: string,
  pathname: string,
  status: number,
  contentType: string,
  body: string,
): string[] {
  const m = method.toLowerCase();
  if (m === 'head' || ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs'].includes(pathname)) return [];
  const match = templates.find((t) => t.regex.test(pathname));
  const operation = match ? doc.paths[match.template]?.[m] : undefined;
  const where = `${method} ${pathname} -> ${status}`;
  if (!operation) {
    // Unknown paths and methods answer documented problems (404, 405, 401...).
    if (status < 400) return [`${where}: success on an undocumented operation`];
    return checkBody(where, 'Problem', problem(), contentType, 'application/problem+json', body);
  }
  const response = operation.responses?.[String(status)];
  if (!response) return [`${where}: status ${status} is not documented for ${match!.template}`];
  const contents = Object.entries(response.content ?? {});
  if (contents.length === 0) return [];
  // The documented media type the response has (the first one when none matches: reported below).
  const [type, media] = contents.find(([t]) => contentType.startsWith(t)) ?? contents[0]!;
  // Only JSON bodies have a schema to check here (the Session API's XML answers do not).
  if (!type.includes('json'))
    return contentType.startsWith(type)
      ? []
      : [`${where}: content type ${contentType || '(none)'}, documented ${type}`];
  return checkBody(
    where,
    `${m} ${match!.template} ${status}`,
    validator(`${m} ${match!.template} ${status}`, media.schema),
    contentType,
    type,
    body,
  );
}

function checkBody(
  where: string,
  _key: string,
  validate: ValidateFunction,
  contentType: string,
  expectedType: string,
  body: string,
): string[] {
  if (!contentType.startsWith(expectedType))
    return [`${where}: content type ${contentType || '(none)'}, documented ${expectedType}`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [`${where}: body is not JSON`];
  }
  if (validate(parsed)) return [];
  return (validate.errors ?? []).map(
    (e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

/** Reads a copy of the response and throws when it breaks the documented contract. */
export async function assertDocumented(method: string, url: string, res: Response): Promise<void> {
  const body = await res.clone().text();
  const problems = checkResponse(
    method,
    new URL(url).pathname,
    res.status,
    res.headers.get('content-type') ?? '',
    body,
  );
  if (problems.length > 0)
    throw new Error(
      `response does not match the OpenAPI document:\n${problems.join('\n')}\nbody: ${body.slice(0, 500)}`,
    );
}
