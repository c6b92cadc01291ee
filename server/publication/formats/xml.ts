/**
 * The little XML writing the metadata formats need: text and attribute escaping, and the removal
 * of the characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE and
 * U+FFFF). A title pasted from a word processor can hold a vertical tab or a form feed; escaping
 * cannot save it (`&#11;` is as illegal as the raw byte), so it is dropped.
 */

// XML 1.0, production 2 (Char): #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// With the u flag a well-formed surrogate pair is one code point above #xFFFF and stays; a lone
// surrogate is matched by [\uD800-\uDFFF] and goes.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text with every character XML 1.0 forbids removed. */
export function xmlSafe(text: string): string {
  return text.replace(FORBIDDEN, "");
}

/** Character data: `&`, `<` and `>` escaped (`>` for `]]>`), forbidden characters removed. */
export function escapeText(text: string): string {
  return xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * An attribute value in double quotes: also `"`, and tab, newline and carriage return as
 * character references, which attribute-value normalisation would otherwise turn into spaces.
 */
export function escapeAttribute(text: string): string {
  return escapeText(text)
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

export type Attributes = Record<string, string | null | undefined>;

/** `<name a="v">text</name>`; attributes whose value is null or undefined are left out. */
export function textElement(name: string, text: string, attributes: Attributes = {}): string {
  return `<${name}${attributeList(attributes)}>${escapeText(text)}</${name}>`;
}

/** `<name a="v">children</name>`, the children already written as XML. */
export function element(name: string, children: string[], attributes: Attributes = {}): string {
  return `<${name}${attributeList(attributes)}>${children.join("")}</${name}>`;
}

function attributeList(attributes: Attributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
}
