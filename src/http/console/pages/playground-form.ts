import type { TSchema } from "@sinclair/typebox";
import type { Operation } from "../../../app/operation.js";
import { html, type Html } from "../html.js";

// The playground's fields, generated from the operations' own parameter
// declarations (the registry): labels, choices, bounds and hints all come from
// there, so the form cannot drift from what the API takes.

/** The endpoints the playground runs, by path. */
export const PLAYGROUND_PATHS = ["/search", "/stories"] as const;

/** The main filters, in form order; only those every playground endpoint declares are shown. */
const FIELDS = ["q", "mode", "language", "publisher_country", "source", "country", "event_type", "from", "to", "limit"];

/** Labels whose words the page's users know the fields by; the others are the parameter's name in words. */
const LABELS: Record<string, string> = { q: "Query", mode: "Mode" };

export interface PlaygroundField {
  name: string;
  label: string;
  schema: TSchema;
}

export function playgroundOperations(operations: readonly Operation[]): Operation[] {
  return PLAYGROUND_PATHS.map((path) => operations.find((op) => op.method === "GET" && op.path === path)).filter(
    (op): op is Operation => op !== undefined,
  );
}

export function playgroundFields(operations: readonly Operation[]): PlaygroundField[] {
  const runs = playgroundOperations(operations);
  return FIELDS.filter((name) => runs.length > 0 && runs.every((op) => name in op.params.properties)).map((name) => ({
    name,
    label: LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1).replaceAll("_", " "),
    schema: runs[0]?.params.properties[name] as TSchema,
  }));
}

/** One field as a labelled control: a select for a set of values, a number input for a number, else text. */
export function fieldControl(field: PlaygroundField, value: string | undefined): Html {
  const { schema } = field;
  const id = `param-${field.name}`;
  const hintId = `hint-${field.name}`;
  const hint = typeof schema.description === "string" ? firstSentence(schema.description) : "";
  const choices = choicesOf(schema);
  let control: Html;
  if (choices) {
    const chosen = value ?? (typeof schema.default === "string" ? schema.default : "");
    control = html`<select id="${id}" name="${field.name}" aria-describedby="${hintId}">
      ${schema.default === undefined ? html`<option value="">(any)</option>` : ""}
      ${choices.map((c) => html`<option ${c === chosen ? html`selected` : ""}>${c}</option>`)}
    </select>`;
  } else {
    // A number is typed with its bounds and step; anything else as text of its longest length.
    const numeric = schema.type === "integer" || schema.type === "number";
    const constraints = numeric
      ? html`${bound("min", schema.minimum)} ${bound("max", schema.maximum)} step="${schema.type === "integer" ? "1" : "any"}"
        placeholder="${schema.default === undefined ? "" : String(schema.default)}"`
      : bound("maxlength", schema.maxLength);
    control = html`<input
      id="${id}"
      type="${numeric ? "number" : "text"}"
      name="${field.name}"
      value="${value ?? ""}"
      ${constraints}
      aria-describedby="${hintId}"
    />`;
  }
  return html`<div class="field"><label for="${id}">${field.label}</label>${control}<small id="${hintId}">${hint}</small></div>`;
}

function choicesOf(schema: TSchema): string[] | undefined {
  const options = schema.anyOf as TSchema[] | undefined;
  if (!Array.isArray(options) || !options.every((o) => typeof o.const === "string")) return undefined;
  return options.map((o) => o.const as string);
}

function bound(attribute: string, value: unknown): Html {
  return typeof value === "number" ? html`${attribute}="${value}"` : html``;
}

/** The declaration without Markdown's backticks, or its first sentence when long: a hint, not the reference. */
function firstSentence(text: string): string {
  const plain = text.replaceAll("`", "");
  if (plain.length <= 140) return plain;
  const end = plain.search(/\.\s/);
  return end === -1 ? plain : plain.slice(0, end + 1);
}
