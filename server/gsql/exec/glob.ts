// Name patterns of SHOW commands: `*` any run of characters, `?` one character; anything
// else matches itself.

export function globMatcher(pattern: string): (name: string) => boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  const re = new RegExp(`^${source}$`);
  return (name) => re.test(name);
}
