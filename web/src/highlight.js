// Regel's highlighting: comments, strings, numbers and the language's
// keywords. The keywords are read from the grammar's own list
// (interpreter/core/src/syntax/keywords.rs, the list the editors' tooling is
// generated from) at build time, so that a new keyword is highlighted here
// without anyone copying it.
import { StreamLanguage } from '@codemirror/language';
import source from '../../interpreter/core/src/syntax/keywords.rs?raw';

export const keywords = new Set([...source.matchAll(/^\s*kw\("([^"]+)"/gm)].map((m) => m[1]));

const language = StreamLanguage.define({
  name: 'regel',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
    if (stream.match(/^\d+/)) return 'number';
    const w = stream.match(/^[A-Za-z_][\w-]*/);
    if (w) return keywords.has(w[0]) ? 'keyword' : 'variableName';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});

export const regel = () => language;
