/** Most NUL findings one refusal names. */
export const MAX_NUL_FINDINGS = 20;

/** A path as a field issue names it, a NUL in a key shown as `\u0000`. */
function shown(path: string): string {
  return path.replaceAll('\u0000', '\\u0000');
}

/**
 * The paths (`a.b.0`) of every string and object key in `value` that holds U+0000, in document order, at
 * most MAX_NUL_FINDINGS. PostgreSQL cannot store that character in text: found here, the input is refused
 * before any query sees it. Walks without recursion, so no nesting can overflow the stack.
 */
export function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0 && found.length < MAX_NUL_FINDINGS) {
    const next = stack.pop()!;
    if (typeof next.value === 'string') {
      if (next.value.includes('\u0000')) found.push(shown(next.path));
      continue;
    }
    if (next.value === null || typeof next.value !== 'object') continue;
    const entries: Array<[string, unknown]> = Array.isArray(next.value)
      ? next.value.map((item, index) => [String(index), item])
      : Object.entries(next.value);
    const children: Array<{ value: unknown; path: string }> = [];
    for (const [key, item] of entries) {
      const path = next.path === '' ? key : `${next.path}.${key}`;
      // A key holding NUL is reported at its own path.
      if (key.includes('\u0000')) children.push({ value: '\u0000', path });
      else children.push({ value: item, path });
    }
    // Last pushed, first read: reversed, the children are read in their order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}
