// Writes console/src/api/schema.gen.ts (`npm run api:types`): the TypeScript types of the public API,
// generated from the OpenAPI document the gateway serves (buildOpenApi). The types have the shape
// openapi-typescript gives (`paths`, `components`), which the console's openapi-fetch client reads;
// openapi-typescript itself needs the TypeScript 5 compiler API, which TypeScript 7 does not have
// (docs/decisions/0031-console-api-client.md). test/docs/api-types.test.ts fails when the
// committed file differs from what this renders.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '@switchboard/gateway/openapi';

export const API_TYPES_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'console',
  'src',
  'api',
  'schema.gen.ts',
);

interface Schema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  prefixItems?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: Schema;
  description?: string;
}
interface Media {
  schema?: Schema;
}
interface Response {
  $ref?: string;
  headers?: Record<string, { schema?: Schema; required?: boolean; description?: string }>;
  content?: Record<string, Media>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, Response>;
  summary?: string;
  operationId?: string;
}
export interface Document {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: {
    schemas: Record<string, Schema>;
    parameters?: Record<string, Parameter>;
    responses?: Record<string, Response>;
  };
}

const PROBLEM = '#/components/schemas/Problem';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const IN = ['query', 'header', 'path', 'cookie'] as const;

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name.replace(/'/g, "\\'")}'`);
const literal = (v: unknown) =>
  typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
const pad = (depth: number) => '  '.repeat(depth);

/** A JSDoc line (or block) for a description; empty without one. */
function doc(description: string | undefined, depth: number): string[] {
  if (!description) return [];
  const lines = description.replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return [`${pad(depth)}/** ${lines[0]} */`];
  return [`${pad(depth)}/**`, ...lines.map((l) => `${pad(depth)} *${l ? ` ${l}` : ''}`), `${pad(depth)} */`];
}

function refType(ref: string): string {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  return `components['schemas'][${literal(m[1]!)}]`;
}

/** Whether a type is a union or intersection outside braces, brackets and quotes: one that needs parentheses. */
function compound(t: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") quoted = true;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}
const union = (types: string[]) => [...new Set(types)].map((t) => (compound(t) ? `(${t})` : t)).join(' | ');

const typed = (s: Schema) =>
  Boolean(s.$ref ?? s.type ?? s.enum ?? s.anyOf ?? s.oneOf ?? s.allOf ?? s.properties) || s.const !== undefined;

/** The TypeScript type of a JSON Schema (the subset the gateway's zod schemas produce). */
function typeOf(s: Schema | undefined, depth: number): string {
  if (!s) return 'unknown';
  if (s.$ref) return refType(s.$ref);
  if (s.const !== undefined) return literal(s.const);
  if (s.enum) return union(s.enum.map(literal));
  // An anyOf of `required` lists only (one of these fields must be there) types nothing.
  const alternatives = (s.anyOf ?? s.oneOf)?.filter(typed);
  if (alternatives?.length) return union(alternatives.map((x) => typeOf(x, depth)));
  if (s.allOf) return s.allOf.map((x) => typeOf(x, depth)).join(' & ');
  if (Array.isArray(s.type)) return union(s.type.map((t) => typeOf({ ...s, type: t }, depth)));
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (s.prefixItems) return `[${s.prefixItems.map((x) => typeOf(x, depth)).join(', ')}]`;
      const item = typeOf(s.items, depth);
      return compound(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
    case undefined:
      if (s.type === undefined && !s.properties) return 'unknown';
      return objectType(s, depth);
    default:
      throw new Error(`unsupported schema type ${String(s.type)}`);
  }
}

function objectType(s: Schema, depth: number): string {
  const required = new Set(s.required ?? []);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    lines.push(...doc(prop.description, depth + 1));
    lines.push(`${pad(depth + 1)}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(prop, depth + 1)};`);
  }
  const extra = s.additionalProperties;
  if (extra !== false && extra !== undefined) {
    const value = lines.length > 0 || extra === true ? 'unknown' : typeOf(extra, depth + 1);
    lines.push(`${pad(depth + 1)}[key: string]: ${value};`);
  }
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : '{ [key: string]: unknown }';
  return `{\n${lines.join('\n')}\n${pad(depth)}}`;
}

function contentType(content: Record<string, Media> | undefined, depth: number): string {
  if (!content || Object.keys(content).length === 0) return 'never';
  const lines = Object.entries(content).map(
    ([media, m]) => `${pad(depth + 1)}${literal(media)}: ${typeOf(m.schema, depth + 1)};`,
  );
  return `{\n${lines.join('\n')}\n${pad(depth)}}`;
}

/** The TypeScript of an OpenAPI document's paths and schemas. */
export function renderTypes(api: Document): string {
  const param = (p: Parameter) => (p.$ref ? api.components.parameters![p.$ref.split('/').pop()!]! : p);
  const lines: string[] = [
    '// Generated by `npm run api:types` (scripts/api-types.ts) from the OpenAPI document the gateway',
    '// serves (buildOpenApi in services/gateway/src/openapi.ts): do not edit, run the script.',
    '',
    'export interface paths {',
  ];
  // A path whose operations read the same as an earlier one's (the /rest/v1 aliases) refers to it.
  const written = new Map<string, string>();
  for (const [path, item] of Object.entries(api.paths)) {
    const out: string[] = [];
    const shared = ((item.parameters ?? []) as Parameter[]).map(param);
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      out.push(...doc(op.summary, 2), `    ${method}: {`);
      // Parameters of the operation override the path's of the same name and place.
      const params = new Map<string, Parameter>();
      for (const p of [...shared, ...(op.parameters ?? []).map(param)]) params.set(`${p.in}:${p.name}`, p);
      out.push('      parameters: {');
      for (const where of IN) {
        const here = [...params.values()].filter((p) => p.in === where);
        if (here.length === 0) {
          out.push(`        ${where}?: never;`);
          continue;
        }
        const needed = here.some((p) => p.required);
        out.push(`        ${where}${needed ? '' : '?'}: {`);
        for (const p of here) {
          out.push(
            ...doc(p.description, 5),
            `          ${key(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema, 5)};`,
          );
        }
        out.push('        };');
      }
      out.push('      };');
      if (op.requestBody) {
        const body = contentType(op.requestBody.content, 4);
        out.push(`      requestBody${op.requestBody.required ? '' : '?'}: {`, `        content: ${body};`, '      };');
      } else out.push('      requestBody?: never;');
      out.push('      responses: {');
      for (const [status, r0] of Object.entries(op.responses ?? {})) {
        const r = r0.$ref ? api.components.responses![r0.$ref.split('/').pop()!]! : r0;
        const code = /^\d+$/.test(status) ? status : literal(status);
        // Every problem answer is one type: its headers (WWW-Authenticate, Retry-After) are not typed.
        const media = Object.entries(r.content ?? {});
        if (
          media.length === 1 &&
          media[0]![0] === 'application/problem+json' &&
          media[0]![1].schema?.$ref === PROBLEM
        ) {
          out.push(`        ${code}: components['responses']['Problem'];`);
          continue;
        }
        out.push(`        ${code}: {`, '          headers: {');
        for (const [name, h] of Object.entries(r.headers ?? {})) {
          out.push(
            ...doc(h.description, 6),
            `            ${key(name)}${h.required ? '' : '?'}: ${typeOf(h.schema, 6)};`,
          );
        }
        out.push('            [name: string]: unknown;', '          };');
        const content = contentType(r.content, 5);
        out.push(content === 'never' ? '          content?: never;' : `          content: ${content};`, '        };');
      }
      out.push('      };', '    };');
    }
    const text = out.join('\n');
    const same = written.get(text);
    if (same) lines.push(`  ${literal(path)}: paths[${literal(same)}];`);
    else {
      written.set(text, path);
      lines.push(`  ${literal(path)}: {`, ...out, '  };');
    }
  }
  const out = lines;
  out.push('}', '', 'export interface components {', '  schemas: {');
  for (const [name, s] of Object.entries(api.components.schemas)) {
    out.push(...doc(s.description, 2), `    ${key(name)}: ${typeOf(s, 2)};`);
  }
  out.push(
    '  };',
    '  responses: {',
    '    /** A problem (RFC 9457), the answer of every failure. */',
    '    Problem: {',
    '      headers: {',
    '        [name: string]: unknown;',
    '      };',
    '      content: {',
    `        'application/problem+json': components['schemas']['Problem'];`,
    '      };',
    '    };',
    '  };',
    '}',
    '',
  );
  return out.join('\n');
}

/** The TypeScript of console/src/api/schema.gen.ts. */
export function renderApiTypes(): string {
  const api = buildOpenApi('http://localhost') as unknown as Document;
  return renderTypes(api) + renderChoices(api);
}

/**
 * The values of the enums the console offers as choices (its filters and forms), which the types
 * alone do not carry: one source, the document, for the console as for the API.
 */
export function renderChoices(api: Document): string {
  const codes = api.components.schemas.Alert?.properties?.code?.enum;
  if (!codes) throw new Error('the OpenAPI document has no Alert.code enum');
  return [
    '',
    "/** The alert codes (components['schemas']['Alert']['code']), in the document's order. */",
    `export const alertCodes = [${codes.map((c) => `'${String(c)}'`).join(', ')}] as const;`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(API_TYPES_FILE, renderApiTypes());
  console.log(`wrote ${API_TYPES_FILE}`);
}
