/** The sources of one directive of a Content-Security-Policy header, or undefined when it is absent. */
export function cspDirective(policy: unknown, name: string): string[] | undefined {
  const found = String(policy)
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found?.slice(1);
}
