// The shipped files, read at build time: every ruleset and variant, every
// example and every map, by their paths in the repository, so that
// `extends "…"` and `board "…"` resolve in the page as they do on disk.
const found = import.meta.glob(
  ['../../rulesets/**/*.rules', '../../examples/**/*.rules', '../../maps/*.toml'],
  { query: '?raw', import: 'default', eager: true },
);

export const shipped = Object.fromEntries(
  Object.entries(found).map(([p, text]) => [p.replace(/^(\.\.\/)+/, ''), text]),
);

// The files a person opens: rulesets and examples (maps are read through them).
export const openable = Object.keys(shipped)
  .filter((p) => p.endsWith('.rules'))
  .sort();
