// The one thing the edge uses of jsdom (regions.ts lends a renderer a DOM); its own types are not installed.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string);
    readonly window: unknown;
  }
}
