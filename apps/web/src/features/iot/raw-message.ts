/** A message of a telemetry record as its details show it. */
export interface ReadableMessage {
  text: string;
  /** Whether the text is JSON (then indented); otherwise it is shown as received (e.g. hex). */
  json: boolean;
}

const INDENT = '  ';
const WHITESPACE = /\s/;

/**
 * Indents valid JSON text without parsing its values, so every literal stays as the device wrote it (a
 * reparse would round integers beyond 2^53 and turn `1.50` into `1.5`).
 */
function indentJson(text: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${INDENT.repeat(depth)}`;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (WHITESPACE.test(char)) continue;
    switch (char) {
      case '"':
        inString = true;
        out += char;
        break;
      case '{':
      case '[': {
        let next = index + 1;
        while (next < text.length && WHITESPACE.test(text.charAt(next))) next += 1;
        const close = char === '{' ? '}' : ']';
        if (text.charAt(next) === close) {
          out += char + close;
          index = next;
        } else {
          depth += 1;
          out += char + newline();
        }
        break;
      }
      case '}':
      case ']':
        depth -= 1;
        out += newline() + char;
        break;
      case ',':
        out += char + newline();
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += char;
    }
  }
  return out;
}

/**
 * A raw message or parsed content as its details show it: a JSON object or array indented, anything else
 * (hex of a binary payload, text that does not parse) byte for byte, because the details must show what
 * was received.
 */
export function readableMessage(text: string): ReadableMessage {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { text, json: false };
  try {
    JSON.parse(trimmed);
  } catch {
    return { text, json: false };
  }
  return { text: indentJson(trimmed), json: true };
}
