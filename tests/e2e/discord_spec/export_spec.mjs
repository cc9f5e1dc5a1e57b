// Writes Discord's API description, from the npm package discord-api-spec (generated from Discord's OpenAPI
// document, github.com/discord/discord-api-spec), as one JSON file that tests/e2e/discord_shapes.py reads:
//
//   {"source": "...", "paths": {"/channels/{channel_id}/messages": {"post": {"request": <schema> | null,
//     "responses": {"200": <schema>, "4XX": <schema>, ...}}}}, "schemas": {"MessageResponse": <schema>, ...}}
//
// Schemas are JSON Schema 2020-12; a reference is {"$ref": "#/$defs/Name"}. The component schemas come from the
// package's Zod schemas through Zod's own toJSONSchema; the operations (which body and which answers each path and
// method takes) from its generated `Paths` type, parsed here. Usage: node export_spec.mjs OUTPUT.json

import { readFileSync, writeFileSync } from "node:fs";
import * as z from "zod/mini";
import * as components from "discord-api-spec/zod";

const packageDir = new URL("./node_modules/discord-api-spec/", import.meta.url);
const version = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8")).version;

// --- the component schemas -------------------------------------------------------------------------------

const registry = z.registry();
for (const [name, schema] of Object.entries(components)) {
  if (name.endsWith("Schema") && schema && typeof schema === "object" && "_zod" in schema) {
    registry.add(schema, { id: name.slice(0, -"Schema".length) });
  }
}
const exported = z.toJSONSchema(registry, {
  target: "draft-2020-12",
  io: "input",
  unrepresentable: "any",
  uri: (id) => `#/$defs/${id}`,
}).schemas;
// Zod writes its own pattern beside "format": "date-time", one that takes only a "Z" zone; Discord's document
// says date-time alone, and Discord writes "+00:00". Keep what the document says.
function withoutZodDatePattern(node) {
  if (Array.isArray(node)) return node.map(withoutZodDatePattern);
  if (!node || typeof node !== "object") return node;
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withoutZodDatePattern(v)]));
  if (copy.format === "date-time") delete copy.pattern;
  return copy;
}
const schemas = {};
for (const [name, schema] of Object.entries(exported)) {
  const { $id, $schema, ...rest } = schema;
  schemas[name] = withoutZodDatePattern(rest);
}

// --- the operations: a small reader of the TypeScript object types of `interface Paths` ------------------

const source = readFileSync(new URL("build/discord-api-spec.ts", packageDir), "utf8");
const start = source.indexOf("{", source.indexOf("export interface Paths"));

function skipSpace(text, at) {
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith("/*", at)) at = text.indexOf("*/", at) + 2;
    else if (text.startsWith("//", at)) at = text.indexOf("\n", at) + 1;
    else return at;
  }
}

// The members of the object type starting at text[at] == "{": [{key, type}] and the index after its "}".
function readObject(text, at) {
  const members = [];
  at = skipSpace(text, at + 1);
  while (text[at] !== "}") {
    let key;
    if (text[at] === "[") {
      key = "[index]"; // an index signature, [key: string]: T
      at = text.indexOf("]", at) + 1;
    } else {
      key = text[at] === '"' ? text.slice(at + 1, text.indexOf('"', at + 1)) : /^[\w$]+/.exec(text.slice(at))[0];
      at += text[at] === '"' ? key.length + 2 : key.length;
    }
    const optional = text[at] === "?";
    at = skipSpace(text, text.indexOf(":", at) + 1);
    let depth = 0;
    const from = at;
    for (; depth > 0 || (text[at] !== ";" && text[at] !== "}"); at++) {
      if ("{[(<".includes(text[at])) depth++;
      else if ("}])>".includes(text[at])) depth--;
    }
    members.push({ key, optional, type: text.slice(from, at).trim() });
    at = skipSpace(text, text[at] === ";" ? at + 1 : at);
  }
  return [members, at + 1];
}

// Top-level alternatives of a union type ("| A | B[] | null").
function alternatives(type) {
  const parts = [];
  let depth = 0;
  let from = 0;
  for (let at = 0; at < type.length; at++) {
    if ("{[(<".includes(type[at])) depth++;
    else if ("}])>".includes(type[at])) depth--;
    else if (type[at] === "|" && depth === 0) {
      parts.push(type.slice(from, at));
      from = at + 1;
    }
  }
  parts.push(type.slice(from));
  return parts.map((part) => part.trim()).filter(Boolean);
}

const PRIMITIVES = {
  string: { type: "string" },
  number: { type: "number" },
  boolean: { type: "boolean" },
  null: { type: "null" },
  true: { const: true },
  false: { const: false },
};

// A JSON Schema for a TypeScript type of the Paths interface; null for "no body" (undefined, never, unknown).
function toSchema(type) {
  const options = alternatives(type).filter((t) => !["undefined", "never", "unknown"].includes(t));
  if (options.length === 0) return null;
  const converted = options.map(convertOne);
  return converted.length === 1 ? converted[0] : { anyOf: converted };
}

function convertOne(type) {
  if (type.startsWith("(") && type.endsWith(")")) return toSchema(type.slice(1, -1)) ?? {};
  if (type.endsWith("[]")) return { type: "array", items: convertOne(type.slice(0, -2)) };
  if (type.startsWith("{")) {
    const [members] = readObject(type, 0);
    const properties = {};
    let additional;
    for (const member of members) {
      if (member.key === "[index]") additional = toSchema(member.type) ?? {};
      else properties[member.key] = toSchema(member.type) ?? {};
    }
    const required = members.filter((m) => !m.optional && m.key !== "[index]").map((m) => m.key);
    return {
      type: "object",
      properties,
      ...(required.length ? { required } : {}),
      ...(additional ? { additionalProperties: additional } : {}),
    };
  }
  if (/^"[^"]*"$/.test(type)) return { const: type.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(type)) return { const: Number(type) };
  if (type in PRIMITIVES) return PRIMITIVES[type];
  if (type in schemas) return { $ref: `#/$defs/${type}` };
  return { "x-unconverted": type };
}

const paths = {};
const [pathMembers] = readObject(source, start);
for (const { key: path, type: operations } of pathMembers) {
  paths[path] = {};
  for (const { key: method, type: operation } of readObject(operations, 0)[0]) {
    const fields = Object.fromEntries(readObject(operation, 0)[0].map((m) => [m.key, m.type]));
    const responses = {};
    for (const { key: status, type } of readObject(fields.responses, 0)[0]) responses[status] = toSchema(type);
    paths[path][method] = { request: fields.requestBody ? toSchema(fields.requestBody) : null, responses };
  }
}

const source_ = `discord-api-spec@${version} (npm; generated from github.com/discord/discord-api-spec), zod toJSONSchema`;
writeFileSync(process.argv[2], JSON.stringify({ source: source_, paths, schemas }));
console.log(`${Object.keys(paths).length} paths, ${Object.keys(schemas).length} schemas from ${source_}`);
