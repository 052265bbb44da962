// Re-indents JSON text for the shell (RUN QUERY prints the response as indented JSON)
// without parsing it into JavaScript values, so 64-bit integers keep every digit.

export function prettyJson(text: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        out += c;
        break;
      case "{":
      case "[": {
        const close = c === "{" ? "}" : "]";
        let j = i + 1;
        while (j < text.length && /\s/.test(text[j]!)) j++;
        if (text[j] === close) {
          out += c + close;
          i = j;
        } else {
          depth++;
          out += c + "\n" + indent.repeat(depth);
        }
        break;
      }
      case "}":
      case "]":
        depth--;
        out += "\n" + indent.repeat(Math.max(depth, 0)) + c;
        break;
      case ",":
        out += ",\n" + indent.repeat(depth);
        break;
      case ":":
        out += ": ";
        break;
      default:
        if (!/\s/.test(c)) out += c;
    }
  }
  return out;
}
