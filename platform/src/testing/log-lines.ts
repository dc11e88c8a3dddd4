/**
 * The keys a JSON text names twice in one object, at any depth, as `path.key` (`service` at the
 * top, `req.id` inside `req`). JSON.parse keeps the last of two and says nothing, and log tools
 * differ in which one they keep, so a log line is checked on its text. `text` must be valid JSON.
 */
export function duplicateKeysOf(text: string): string[] {
  const duplicates: string[] = [];
  /** Per open object: its path and the keys seen so far; an open array is null. */
  const open: ({ path: string; keys: Set<string>; lastKey: string } | null)[] = [];
  let expectingKey = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = open.at(-1);
      if (expectingKey && top) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (top.keys.has(key)) duplicates.push(top.path ? `${top.path}.${key}` : key);
        top.keys.add(key);
        top.lastKey = key;
        expectingKey = false;
      }
      at = end;
    } else if (char === '{') {
      const parent = open.at(-1);
      const path = parent ? (parent.path ? `${parent.path}.${parent.lastKey}` : parent.lastKey) : '';
      open.push({ path, keys: new Set(), lastKey: '' });
      expectingKey = true;
    } else if (char === '[') {
      open.push(null);
    } else if (char === '}' || char === ']') {
      open.pop();
    } else if (char === ',') {
      expectingKey = open.at(-1) !== null && open.length > 0;
    }
  }
  return duplicates;
}
