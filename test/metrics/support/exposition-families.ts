/** Family name → its HELP/TYPE lines and its samples, sorted: what Prometheus reads from a document. */
export function families(text: string): Record<string, { header: string[]; samples: string[] }> {
  const out: Record<string, { header: string[]; samples: string[] }> = {};
  const at = (name: string) => (out[name] ??= { header: [], samples: [] });
  for (const line of text.split('\n').filter(Boolean)) {
    const header = /^# (?:HELP|TYPE) (\S+)/.exec(line);
    if (header) at(header[1]!).header.push(line);
    // Whitespace between labels means nothing to Prometheus (BullMQ writes `", "`, Bullpen `","`): compared without it.
    else at(/^[^{\s]+/.exec(line)![0]).samples.push(line.replace(/",\s+(?=[a-zA-Z_]\w*=")/g, '",'));
  }
  for (const family of Object.values(out)) family.samples.sort();
  return out;
}
