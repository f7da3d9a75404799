/**
 * A JSON body with `{name}` placeholders, as an SMS gateway or push service wants it: each placeholder is
 * replaced by its value escaped for a JSON string, so the template's quotes hold whatever the value is.
 * Placeholders stand inside string literals (`"text": "{message}"`).
 */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The body of the template with every placeholder replaced (one the values lack becomes empty). */
export function renderJsonTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) =>
    JSON.stringify(values[name] ?? '').slice(1, -1),
  );
}

/**
 * What is wrong with a template, or null: an unknown placeholder, or a body that is no JSON object once the
 * placeholders are filled with text holding quotes and line breaks.
 */
export function jsonTemplateProblem(template: string, names: readonly string[]): string | null {
  const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((n) => !names.includes(n));
  if (unknown.length > 0)
    return `uses ${[...new Set(unknown)].map((n) => `{${n}}`).join(', ')}; the placeholders are ${names.map((n) => `{${n}}`).join(', ')}`;
  const sample = Object.fromEntries(names.map((n) => [n, `"${n}"\n\\`]));
  try {
    const parsed: unknown = JSON.parse(renderJsonTemplate(template, sample));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return 'must be a JSON object';
  } catch {
    return 'must be JSON with the placeholders inside strings, e.g. {"to":"{phone}","text":"{message}"}';
  }
  return null;
}
