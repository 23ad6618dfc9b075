// damerau-levenshtein ships no types: the one call this module makes (a CommonJS function).
declare module 'damerau-levenshtein' {
  function damerau(a: string, b: string): { steps: number; relative: number; similarity: number };
  export = damerau;
}
