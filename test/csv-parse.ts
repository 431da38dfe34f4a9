// A strict RFC 4180 parser for the export tests, written independently of lib/results/csv.ts: quoted
// fields may hold commas, doubled quotes, CR and LF; records end with CRLF. Throws on anything else
// (a stray quote, text after a closing quote), so a malformed export fails the test.

export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < n && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') throw new Error(`stray quote at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text.startsWith("\r\n", i)) i += 2;
    else if (i < n) throw new Error(`expected CRLF or comma at ${i}, got ${JSON.stringify(text[i])}`);
    records.push(record);
    record = [];
  }
  return records;
}
